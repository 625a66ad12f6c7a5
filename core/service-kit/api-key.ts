import { createHash, timingSafeEqual } from 'node:crypto';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest();

/**
 * `X-API-Key` check in constant time: the presented key and the configured one are compared as
 * SHA-256 digests (fixed length, so neither the key's length nor its content shows in the timing);
 * the configured key's digest is computed once.
 */
export const apiKeyChecker = (configured: string) => {
  const expected = sha256(Buffer.from(configured, 'utf8'));
  return (presented: string): boolean => timingSafeEqual(expected, sha256(Buffer.from(presented, 'utf8')));
};

/** The shortest API key a service accepts: a guessable key is no key. */
export const MIN_API_KEY_LENGTH = 32;

/** Why a configured API key is not acceptable (named `name`), or undefined. */
export const apiKeyProblem = (name: string, key: string | undefined): string | undefined => {
  if (!key) return `${name} is required: the key clients send`;
  if (key.length < MIN_API_KEY_LENGTH) return `${name} must be at least ${MIN_API_KEY_LENGTH} characters (openssl rand -hex 24)`;
  return undefined;
};
