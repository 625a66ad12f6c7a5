// Checks a template against the digestMultibase its render method names: a SHA-256 multihash in base58btc
// (`z…`, what storage services return), base64url (`u…`) or base16 (`f…`).

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const fromBase58 = (text) => {
  let value = 0n;
  for (const ch of text) {
    const digit = BASE58.indexOf(ch);
    if (digit < 0) return undefined;
    value = value * 58n + BigInt(digit);
  }
  const bytes = [];
  while (value > 0n) { bytes.unshift(Number(value % 256n)); value /= 256n; }
  for (const ch of text) { if (ch !== '1') break; bytes.unshift(0); }
  return Uint8Array.from(bytes);
};

const fromBase64Url = (text) => {
  try {
    return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
};

const fromHex = (text) => (/^([0-9a-f]{2})+$/i.test(text) ? Uint8Array.from(text.match(/../g), (h) => parseInt(h, 16)) : undefined);

/** The 32-byte SHA-256 a digestMultibase carries, or undefined when it is not a sha2-256 multihash. */
export const sha256OfMultibase = (value) => {
  if (typeof value !== 'string' || value.length < 2 || value.length > 200) return undefined;
  const body = value.slice(1);
  const bytes = { z: fromBase58, u: fromBase64Url, f: fromHex }[value[0]]?.(body);
  return bytes && bytes.length === 34 && bytes[0] === 0x12 && bytes[1] === 0x20 ? bytes.slice(2) : undefined;
};

/**
 * Whether the text's SHA-256 (of its UTF-8 bytes) is the one in digestMultibase: true, false, or undefined
 * when it cannot be computed here (no Web Crypto outside a secure context).
 */
export const digestMatches = async (text, digestMultibase) => {
  const expected = sha256OfMultibase(digestMultibase);
  if (!expected) return false;
  if (!globalThis.crypto?.subtle) return undefined;
  const actual = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return actual.length === expected.length && actual.every((b, i) => b === expected[i]);
};
