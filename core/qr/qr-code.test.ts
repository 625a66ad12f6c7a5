import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { qrCodePng, qrCodeSvg } from './qr-code.ts';

const LINK = 'https://example.test/verify?q=' + encodeURIComponent(JSON.stringify({ payload: { uri: 'https://store.example.test/c/3f2a.json', key: 'ab'.repeat(32), hash: 'cd'.repeat(32) } }));

const decodePng = (bytes: Uint8Array) => {
  const png = PNG.sync.read(Buffer.from(bytes));
  return { width: png.width, text: jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data };
};

/** Rasterises the SVG's white background and the dark runs of its path (`M x y h n v1 h-n z`) at 4 px per module. */
const decodeSvg = (svg: string) => {
  const side = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const scale = 4;
  const px = side * scale;
  const rgba = new Uint8ClampedArray(px * px * 4).fill(255);
  const d = /<path[^>]* d="([^"]*)"/.exec(svg)?.[1] ?? '';
  for (const [, x, y, run] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let row = Number(y) * scale; row < (Number(y) + 1) * scale; row += 1) {
      for (let col = Number(x) * scale; col < (Number(x) + Number(run)) * scale; col += 1) {
        rgba.fill(0, (row * px + col) * 4, (row * px + col) * 4 + 3);
      }
    }
  }
  expect(d.replace(/M(\d+) (\d+)h(\d+)v1h-\3z/g, '')).toBe('');
  return jsQR(rgba, px, px)?.data;
};

describe('QR codes', () => {
  it('a PNG decodes back to the exact text at every error-correction level', async () => {
    for (const errorCorrection of ['L', 'M', 'Q', 'H'] as const) {
      const { text } = decodePng(await qrCodePng(LINK, { size: 512, errorCorrection }));
      expect(text).toBe(LINK);
    }
  });

  it('a PNG is at most the size asked for, in whole pixels per module', async () => {
    const small = decodePng(await qrCodePng('https://example.test/a', { size: 64 }));
    expect(small.width).toBeLessThanOrEqual(64);
    expect(small.text).toBe('https://example.test/a');
    const large = decodePng(await qrCodePng('https://example.test/a', { size: 1000 }));
    expect(large.width).toBeLessThanOrEqual(1000);
    expect(large.width).toBeGreaterThan(900);
  });

  it('an SVG decodes back to the exact text and carries its size and a label', async () => {
    const svg = await qrCodeSvg(LINK, { size: 300, errorCorrection: 'Q' });
    expect(svg).toMatch(/^<svg [^>]*width="300" height="300"/);
    expect(svg).toContain('role="img"');
    expect(decodeSvg(svg)).toBe(LINK);
  });

  it('more error correction means a larger code for the same text', async () => {
    const modules = async (errorCorrection: 'L' | 'H') => Number(/viewBox="0 0 (\d+)/.exec(await qrCodeSvg(LINK, { errorCorrection }))?.[1]);
    expect(await modules('H')).toBeGreaterThan(await modules('L'));
  });

  it('refuses a size out of range and text too long for any QR code', async () => {
    await expect(qrCodeSvg('x', { size: 10 })).rejects.toThrow(/size/);
    await expect(qrCodePng('x', { size: 256.5 })).rejects.toThrow(/size/);
    await expect(qrCodeSvg('x'.repeat(5000))).rejects.toThrow();
  });
});
