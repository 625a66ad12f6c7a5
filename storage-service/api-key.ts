import { sha256 } from './digests.ts';

/**
 * `X-API-Key` check in constant time: the presented key and the configured one are compared as
 * SHA-256 digests (fixed length, so neither the key's length nor its content shows in the timing);
 * the configured key's digest is computed once.
 */
export const apiKeyChecker = (configured: string) => {
  const encoder = new TextEncoder();
  const expected = sha256(encoder.encode(configured));
  return async (presented: string): Promise<boolean> => {
    const [a, b] = await Promise.all([expected, sha256(encoder.encode(presented))]);
    let difference = 0;
    for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
    return difference === 0;
  };
};
