/** A minimal browser for redirect flows: follows nothing by itself, keeps cookies per origin. */
export class CookieBrowser {
  readonly #jars = new Map<string, Map<string, string>>();

  cookie(origin: string, name: string): string | undefined {
    return this.#jars.get(origin)?.get(name);
  }

  setCookie(origin: string, name: string, value: string): void {
    const jar = this.#jars.get(origin) ?? new Map<string, string>();
    jar.set(name, value);
    this.#jars.set(origin, jar);
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const { origin } = new URL(url);
    const jar = this.#jars.get(origin) ?? new Map<string, string>();
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.#jars.set(origin, jar);
    return response;
  }

  /** Follows redirects until a response that is not a redirect, or until `stopAt` matches the next URL. */
  async follow(url: string, stopAt?: (next: string) => boolean): Promise<{ response: Response; url: string }> {
    let current = url;
    for (let hop = 0; hop < 15; hop++) {
      const response = await this.fetch(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: current };
      const next = new URL(location, current).toString();
      if (stopAt?.(next)) return { response, url: next };
      current = next;
    }
    throw new Error('too many redirects');
  }
}

/**
 * Signs in through the app's /auth/login and the local IDP's login form, as a person would.
 * Returns the browser (holding the session cookie) and where the app sent it at the end.
 */
export const signInThroughBrowser = async (appUrl: string, login: string, returnTo = '/api/v1/registrars') => {
  const browser = new CookieBrowser();
  const toForm = await browser.follow(`${appUrl}/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
  if (!/\/interaction\//.test(toForm.url)) throw new Error(`expected the IDP login form, got ${toForm.url}`);
  const submitted = await browser.fetch(toForm.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ prompt: 'login', login, password: 'any' }),
  });
  const resume = new URL(submitted.headers.get('location')!, toForm.url).toString();
  const toCallback = await browser.follow(resume, (next) => next.startsWith(`${appUrl}/auth/callback`));
  const callback = await browser.fetch(toCallback.url);
  return { browser, callback, landedAt: callback.headers.get('location') };
};
