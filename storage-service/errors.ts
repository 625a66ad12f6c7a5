/** A refusal with the upstream service's body shape: `{ "message": "..." }`. */
export class StorageError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409 | 413 | 500,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new StorageError(400, message);
