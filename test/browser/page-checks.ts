import type { Page } from 'playwright-core';

/**
 * WCAG contrast ratio of each matching visible element's text against the first opaque background
 * behind it (the page's own colours; the credential frame is the issuer's design).
 */
export const contrastRatios = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const channel = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    };
    const background = (element: Element | null): number[] => {
      for (let e = element; e; e = e.parentElement) {
        const parts = rgb(getComputedStyle(e).backgroundColor);
        if (parts.length === 3 || (parts.length === 4 && parts[3]! > 0)) return parts.slice(0, 3);
      }
      return [255, 255, 255];
    };
    return [...document.querySelectorAll(sel)]
      .filter((e) => (e as HTMLElement).offsetParent !== null && (e.textContent ?? '').trim() !== '')
      .map((e) => {
        const [a, b] = [luminance(rgb(getComputedStyle(e).color)), luminance(background(e))];
        return { text: (e.textContent ?? '').trim().slice(0, 40), ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
      });
  }, selector);

/** Everything the page keeps in the browser: address, history entry, web storage and cookies. */
export const storedTraces = async (page: Page) => ({
  address: page.url(),
  storage: await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, history: history.state, cookie: document.cookie })),
  cookies: JSON.stringify(await page.context().cookies()),
});
