// A minimal PNG writer for black-and-white images, on Web-standard APIs only (CompressionStream gives the
// zlib stream PNG's IDAT needs), so the same code runs on Node, workerd and in a browser.

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const chunk = (type: string, data: Uint8Array) => {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
};

const zlib = async (bytes: Uint8Array) => {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
};

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A square `side`×`side` 1-bit greyscale PNG; `isDark(y, x)` says which pixels are black. */
export const pngBytes = async (side: number, isDark: (y: number, x: number) => boolean): Promise<Uint8Array> => {
  const rowBytes = Math.ceil(side / 8);
  const raw = new Uint8Array((rowBytes + 1) * side);
  for (let y = 0; y < side; y += 1) {
    const start = y * (rowBytes + 1); // the row's filter byte stays 0 (none)
    for (let x = 0; x < side; x += 1) {
      // In 1-bit greyscale a set bit is white.
      if (!isDark(y, x)) raw[start + 1 + (x >> 3)] = raw[start + 1 + (x >> 3)]! | (0x80 >> (x & 7));
    }
    // Padding bits past the image's edge are left 0; decoders ignore them.
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, side);
  view.setUint32(4, side);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, adaptive filtering, no interlace
  const parts = [SIGNATURE, chunk('IHDR', header), chunk('IDAT', await zlib(raw)), chunk('IEND', new Uint8Array())];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
};
