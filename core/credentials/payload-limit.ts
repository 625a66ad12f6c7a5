import { ApiError } from '../errors.ts';

/**
 * The largest credential payload issued (`credentialPayload` as JSON, UTF-8 bytes): 512 KiB. Chosen
 * below every cap the credential meets on its way, so nothing is signed that cannot be recorded:
 * the VC service's request cap (1 MiB: payload, status entries, options) and the adapter's response
 * cap (1 MiB, `MAX_RESPONSE_BYTES`: the signed answer carries the payload base64url-encoded, 4/3 of
 * its size, so 512 KiB becomes about 700 KiB). Checked first, when the request is parsed, before
 * anything is minted or signed. `payload-limit.test.ts` holds the sums against the real caps.
 */
export const MAX_CREDENTIAL_PAYLOAD_BYTES = 524_288;

const encoder = new TextEncoder();

/** The payload's size as the VC service will receive it. */
export const payloadBytes = (payload: unknown): number => encoder.encode(JSON.stringify(payload)).byteLength;

/** 413 naming the field when the payload is larger than MAX_CREDENTIAL_PAYLOAD_BYTES. */
export const assertPayloadSize = (payload: unknown, field: string): void => {
  const size = payloadBytes(payload);
  if (size > MAX_CREDENTIAL_PAYLOAD_BYTES) {
    throw new ApiError(413, `${field}: must not exceed ${MAX_CREDENTIAL_PAYLOAD_BYTES} bytes as JSON (it has ${size})`, 'CREDENTIAL_PAYLOAD_TOO_LARGE');
  }
};
