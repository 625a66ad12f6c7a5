import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeTemplate } from '../../core/render-templates/sanitize.ts';
import { launchBrowser, newContext, watchForScripts, XSS_MARKER } from './browser-rig.ts';
import { referenceSanitise } from './reference-sanitiser.ts';
import { FIELD_PAYLOADS, TEMPLATE_PAYLOADS } from './xss-corpus.ts';

const fire = (n: number) => `console.log('${XSS_MARKER} ${n}')`;

/**
 * Beyond the corpus: markup whose meaning depends on the parser (foreign content, raw-text elements,
 * case, entities), where a sanitiser that is not a browser could be fooled.
 */
const PARSER_PAYLOADS = [
  `<svg><style><img src=x onerror="${fire(201)}"></style></svg>`,
  `<svg><style>&lt;img src=x onerror="${fire(202)}"&gt;</style></svg>`,
  `<math><style><img src=x onerror="${fire(203)}"></style></math>`,
  `<svg></p><style><img src=x onerror="${fire(204)}"></style></svg>`,
  `<style><img src=x onerror="${fire(205)}"></style>`,
  `<style></style ><img src=x onerror="${fire(206)}"></style>`,
  `<STYLE><img src=x onerror="${fire(207)}"></STYLE>`,
  `<IMG SRC=x ONERROR="${fire(208)}">`,
  `<svg><a href="javascript:${fire(209)}"><text x="1" y="9">t</text></a></svg>`,
  `<svg><a xlink:href="javascript:${fire(210)}"><text x="1" y="9">t</text></a></svg>`,
  `<a href="jav&#x09;ascript:${fire(211)}">x</a>`,
  `<a href="&#106;avascript:${fire(212)}">x</a>`,
  `<img src="x" srcset="javascript:${fire(213)} 1x">`,
  `<textarea><img src=x onerror="${fire(214)}"></textarea>`,
  `<title><img src=x onerror="${fire(215)}"></title>`,
  `<xmp><img src=x onerror="${fire(216)}"></xmp>`,
  `<!--><img src=x onerror="${fire(217)}">-->`,
  `<p title="--><img src=x onerror=${fire(218)}>">x</p>`,
  `<svg><desc><img src=x onerror="${fire(219)}"></desc></svg>`,
  `<svg><title><style><img src=x onerror="${fire(220)}"></style></title></svg>`,
  `<table><svg><style><img src=x onerror="${fire(221)}"></style></svg></table>`,
  `<select><style><img src=x onerror="${fire(222)}"></style></select>`,
];

const CORPUS = [...TEMPLATE_PAYLOADS, ...FIELD_PAYLOADS, ...PARSER_PAYLOADS];

/**
 * The XSS corpus through the render-template sanitiser and through the DOMPurify-on-jsdom one it replaced,
 * each output loaded as a page in Chromium (no sandbox, scripts on): a payload counts as passed when it runs
 * (console marker, dialog, navigation) or leaves an event handler or a javascript: URL in the document.
 * The parser-based sanitiser must block every payload the reference blocks.
 */
describe('render-template sanitiser against the XSS corpus, in a real browser', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser);
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  /** What of a sanitised output is live in a browser. */
  const liveIn = async (html: string): Promise<string[]> => {
    const page = await context.newPage();
    const { hits } = watchForScripts(page);
    try {
      await page.setContent(`<!doctype html><html><body>${html}</body></html>`, { waitUntil: 'load' });
      // Let timers, focus and toggle events, and SVG animations run.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
      const leftovers = await page.evaluate(() =>
        [...document.querySelectorAll('*')].flatMap((element) =>
          [...element.attributes]
            .filter((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value.replace(/[\u0000-\u0020]/g, '')))
            .map((a) => `${element.tagName.toLowerCase()}@${a.name}=${a.value.slice(0, 40)}`),
        ),
      );
      return [...hits, ...leftovers];
    } finally {
      await page.close();
    }
  };

  it(`blocks every one of ${CORPUS.length} payloads the DOMPurify reference blocks (and the reference blocks them all)`, async () => {
    const failures: string[] = [];
    for (const payload of CORPUS) {
      const reference = await liveIn(referenceSanitise(payload).html);
      const ours = await liveIn(sanitizeTemplate(payload).html);
      if (ours.length > 0 && reference.length === 0) failures.push(`${payload}\n  → ${sanitizeTemplate(payload).html}\n  live: ${ours.join('; ')}`);
      expect(reference, `reference on ${payload}`).toEqual([]);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('the check itself sees a payload that runs (unsanitised corpus is live)', async () => {
    expect(await liveIn(`<img src=x onerror="${fire(1)}">`)).not.toEqual([]);
    expect(await liveIn(`<a href="javascript:${fire(2)}">x</a>`)).not.toEqual([]);
  }, 30_000);
});
