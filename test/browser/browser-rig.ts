import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium fonts-liberation`); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the screenshots of each page state go (git-ignored), for a reviewer to look at. */
export const ARTIFACTS_DIR = join(import.meta.dirname, '..', 'artifacts', 'verify');

/**
 * Headless Chromium through playwright-core. A missing browser fails the test run with the fix,
 * never skips: these tests are the only proof that the page is safe in a real browser.
 */
export const launchBrowser = async (executablePath = CHROMIUM_PATH): Promise<Browser> => {
  if (!existsSync(executablePath)) {
    throw new Error(`No Chromium at ${executablePath}: install it (apt-get install -y chromium fonts-liberation) or set CHROMIUM_PATH. The browser tests cannot run without it.`);
  }
  // Chromium's own sandbox refuses to start as root (CI containers).
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  return chromium.launch({ executablePath, headless: true, args });
};

/** A fresh context (own cookies and storage) with downloads accepted; waits give up after 10 s. */
export const newContext = async (browser: Browser, viewport = { width: 1024, height: 900 }): Promise<BrowserContext> => {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  context.setDefaultTimeout(10_000);
  return context;
};

/**
 * A full-page screenshot to look at (`<dir>/<name>.png`, git-ignored). BROWSER_SCREENSHOTS=false skips them:
 * `.ci/run` sets it, since no one looks at a CI run's pictures and each full page costs the browser CPU.
 */
export const screenshot = async (page: Page, name: string, dir = ARTIFACTS_DIR) => {
  if (process.env.BROWSER_SCREENSHOTS === 'false') return;
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
};

/** The marker every XSS payload writes when it runs (console) and its dialog text. */
export const XSS_MARKER = 'XSS-EXECUTED';

/**
 * Counts script executions caused by payloads, in the page and in every frame: any dialog
 * (alert/confirm/prompt), any console line a payload logs (starting with the marker), and any navigation away from the
 * page (a `javascript:` URL, a refresh, a top-level redirect). A sandboxed frame cannot show dialogs,
 * which is why the payloads also log the marker.
 */
export const watchForScripts = (page: Page) => {
  const hits: string[] = [];
  page.on('dialog', (dialog) => {
    hits.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    // Only what a payload logs itself: the browser's own reports of blocked loads quote payloads too.
    if (message.type() === 'log' && message.text().startsWith(XSS_MARKER)) hits.push(`console: ${message.text()}`);
  });
  page.on('framenavigated', (frame) => {
    const url = frame.url();
    const leftThePage = frame === page.mainFrame() && !url.startsWith('about:') && new URL(url).pathname !== '/verify';
    if (url.startsWith('javascript:') || leftThePage) hits.push(`navigation: ${url}`);
  });
  return { hits };
};
