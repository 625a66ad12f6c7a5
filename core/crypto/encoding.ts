/** Byte/string conversions on Web-standard APIs only (usable in edge functions). */
export const hexToBytes = (hex: string): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
};

export const bytesToHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export const bytesToBase64Url = (bytes: Uint8Array): string => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
};

/** The bytes of a binary string (one char per byte, as `atob` gives); a plain loop, several times faster than `Uint8Array.from` with a mapper. */
const binaryToBytes = (binary: string): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
};

/** Standard base64 (with padding) to bytes; throws on characters outside the alphabet. */
export const base64ToBytes = (text: string): Uint8Array<ArrayBuffer> => binaryToBytes(atob(text));

export const base64UrlToBytes = (text: string): Uint8Array<ArrayBuffer> => {
  const b64 = text.replaceAll('-', '+').replaceAll('_', '/');
  return base64ToBytes(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
};

/** SHA-256 as lowercase hex, of a text (as UTF-8) or of bytes. */
export const sha256Hex = async (input: string | Uint8Array): Promise<string> =>
  bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', (typeof input === 'string' ? new TextEncoder().encode(input) : input) as Uint8Array<ArrayBuffer>)));

export const randomToken = (byteLength = 32): string =>
  bytesToBase64Url(crypto.getRandomValues(new Uint8Array(byteLength)));
