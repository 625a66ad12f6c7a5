declare module '@digitalbazaar/bitstring' {
  export class Bitstring {
    constructor(options: { length: number } | { buffer: Uint8Array });
    bits: Uint8Array;
    length: number;
    set(position: number, on: boolean): void;
    get(position: number): boolean;
    /** GZIP-compressed, base64url (no multibase prefix). */
    encodeBits(): Promise<string>;
    static decodeBits(options: { encoded: string }): Promise<Uint8Array>;
  }
}
