// What the page says when the verify API does not answer with a result: one message per code.

const BY_CODE = {
  DECRYPTION_FAILED: 'That key does not open this credential. Check that you copied the whole key and try again.',
  ENVELOPE_INVALID: 'The stored credential is damaged: its encrypted envelope is incomplete or malformed, so no key can open it.',
  DIGEST_MISMATCH: 'The document at this link is not the one that was issued: its content does not match the expected digest.',
  DECRYPTED_NOT_JSON: 'The key opened the stored document, but it does not contain a credential.',
  UNSUPPORTED_CREDENTIAL_TYPE: 'The document at this link is not a credential this page can check (a signed, enveloped verifiable credential is expected).',
  INVALID_RESPONSE: 'The link did not return a credential.',
  DECRYPTION_REQUIRED: 'This credential is encrypted and needs its decryption key.',
};

/** Why a verification produced no result, for a status code, an error code and the server's message. */
export const failureMessage = ({ status, code, error, retryAfter }) => {
  if (code && BY_CODE[code]) return BY_CODE[code];
  if (status === 400) return `The verification link is incomplete or malformed${error ? `: ${error}` : '.'}`;
  if (status === 429) {
    const seconds = Number.parseInt(retryAfter ?? '', 10);
    return `Too many verifications right now. Try again${Number.isFinite(seconds) ? ` in ${seconds} seconds` : ' shortly'}.`;
  }
  if (status === 502 || status === 503 || status === 504) return 'The credential or the verification service could not be reached. Try again later.';
  if (status === 0) return 'The verification service could not be contacted. Check your connection and try again.';
  return `The credential could not be checked (HTTP ${status}).`;
};

/** Why a credential did not verify, from the API's `error: { type, message }`. */
export const notVerifiedReason = (error) => {
  const lead = {
    integrity: 'Its content has been altered or its signature is not valid.',
    temporal: 'It is outside its validity period.',
    status: 'Its issuer has revoked or suspended it, or its status could not be confirmed.',
  }[error?.type] ?? 'It did not pass verification.';
  return typeof error?.message === 'string' && error.message ? `${lead} (${error.message})` : lead;
};
