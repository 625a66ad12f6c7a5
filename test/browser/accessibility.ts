import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The WCAG 2.1 A and AA rules of axe-core. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const violationsOf = async (page: Page) => {
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
};

/** A page of the same origin and size showing `html` (scripts left out), for axe to examine. */
const copyOf = async (page: Page, html: string, width: number) => {
  const copy = await page.context().newPage();
  await copy.setViewportSize({ width, height: page.viewportSize()?.height ?? 800 });
  await copy.route('**/*', (route) => (route.request().resourceType() === 'script' ? route.abort() : route.continue()));
  await copy.goto(new URL('/verify/style.css', page.url()).href);
  await copy.setContent(html);
  return copy;
};

/**
 * axe-core's WCAG 2.1 AA violations, as `rule: target` lines: of the page as it is now, and of the rendered
 * credential when one is shown. axe cannot run inside the sandboxed, script-less credential frame (its
 * injection there never returns), so it examines a copy of the page's current DOM (its styles, no scripts, the
 * frame left empty but kept with its title) and, on its own, the frame's document (its srcdoc) at the frame's width.
 */
export const axeViolations = async (page: Page): Promise<string[]> => {
  const width = page.viewportSize()?.width ?? 1024;
  const frame = page.locator('#rendered');
  const srcdoc = (await frame.count()) && (await frame.isVisible()) ? await frame.getAttribute('srcdoc') : null;
  const box = srcdoc ? await frame.boundingBox() : null;
  const html = await page.evaluate(() => {
    const root = document.documentElement.cloneNode(true) as HTMLElement;
    for (const script of root.querySelectorAll('script')) script.remove();
    const rendered = root.querySelector('#rendered');
    rendered?.removeAttribute('srcdoc');
    rendered?.removeAttribute('sandbox');
    return `<!doctype html>${root.outerHTML}`;
  });
  const found: string[] = [];
  const copy = await copyOf(page, html, width);
  try {
    found.push(...(await violationsOf(copy)));
  } finally {
    await copy.close();
  }
  if (srcdoc) {
    const card = await copyOf(page, srcdoc, Math.max(320, Math.round(box?.width ?? 390)));
    try {
      found.push(...(await violationsOf(card)).map((line) => `frame ${line}`));
    } finally {
      await card.close();
    }
  }
  return found;
};
