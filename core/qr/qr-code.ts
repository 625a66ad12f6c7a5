import { pngBytes } from './png-encoder.ts';

export type ErrorCorrection = 'L' | 'M' | 'Q' | 'H';

export interface QrCodeOptions {
  /** The image's width and height in pixels (SVG: its width/height attributes). Default 256. */
  size?: number;
  /** How much of the code may be damaged and still read (L 7 %, M 15 %, Q 25 %, H 30 %). Default M. */
  errorCorrection?: ErrorCorrection;
}

export const QR_SIZE = { min: 64, max: 2048, default: 256 } as const;
/** The blank border the QR standard asks for around the code, in modules. */
const QUIET_ZONE = 4;

/**
 * The code's dark modules as a square grid (true = dark), quiet zone not included. The QR library (~25 KB minified)
 * is imported on the first code drawn, not with this module: an edge bundle carries it as a module of its own,
 * loaded only when a page or an API call draws a code (scripts/edge-bundle.ts splits it off).
 */
const moduleGrid = async (text: string, options: QrCodeOptions) => {
  const size = options.size ?? QR_SIZE.default;
  if (!Number.isInteger(size) || size < QR_SIZE.min || size > QR_SIZE.max) {
    throw new RangeError(`size: must be an integer from ${QR_SIZE.min} to ${QR_SIZE.max}`);
  }
  // Only the library's encoder is used (the same on Node, workerd and in a browser); both images are drawn here.
  const { default: QRCode } = await import('qrcode');
  const code = QRCode.create(text, { errorCorrectionLevel: options.errorCorrection ?? 'M' });
  const count = code.modules.size;
  const dark = (row: number, col: number) => code.modules.data[row * count + col] === 1;
  return { size, count, dark };
};

/** The QR code of `text` as an SVG document: one path of dark modules on white, crisp at any scale. */
export const qrCodeSvg = async (text: string, options: QrCodeOptions = {}): Promise<string> => {
  const { size, count, dark } = await moduleGrid(text, options);
  const side = count + 2 * QUIET_ZONE;
  let path = '';
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; ) {
      if (!dark(row, col)) { col += 1; continue; }
      let run = 1;
      while (col + run < count && dark(row, col + run)) run += 1;
      path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h${run}v1h-${run}z`;
      col += run;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges" role="img" aria-label="QR code">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`;
};

/**
 * The QR code of `text` as a PNG (1-bit greyscale). Each module is a whole number of pixels, so the image
 * is `size` pixels wide or a little less (never blurred); it is never smaller than one pixel per module.
 */
export const qrCodePng = async (text: string, options: QrCodeOptions = {}): Promise<Uint8Array> => {
  const { size, count, dark } = await moduleGrid(text, options);
  const side = count + 2 * QUIET_ZONE;
  const scale = Math.max(1, Math.floor(size / side));
  const pixels = side * scale;
  const isDark = (y: number, x: number) => {
    const row = Math.floor(y / scale) - QUIET_ZONE;
    const col = Math.floor(x / scale) - QUIET_ZONE;
    return row >= 0 && col >= 0 && row < count && col < count && dark(row, col);
  };
  return pngBytes(pixels, isDark);
};
