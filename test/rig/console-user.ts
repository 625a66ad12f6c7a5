import { signInThroughBrowser, type CookieBrowser } from './browser.ts';

/** A page the console answered: status, headers, its HTML and the CSRF token of its forms. */
export interface ConsoleResponse {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
}

export interface ConsoleUser {
  browser: CookieBrowser;
  get(path: string, headers?: Record<string, string>): Promise<ConsoleResponse>;
  /** Posts a form; the session's CSRF token is added unless `csrf: false` (or another token is given). */
  post(path: string, form: Record<string, string | string[]>, options?: { csrf?: false | string }): Promise<ConsoleResponse>;
  csrfToken(): Promise<string>;
}

const read = async (response: Response): Promise<ConsoleResponse> => ({
  status: response.status,
  headers: response.headers,
  html: await response.text(),
  location: response.headers.get('location'),
});

/** The CSRF token a console page put in its forms (or in the header htmx sends). */
export const csrfTokenIn = (html: string) => {
  const match = html.match(/name="_csrf" value="([0-9a-f]{64})"|x-csrf-token&quot;:&quot;([0-9a-f]{64})&quot;/);
  return match?.[1] ?? match?.[2];
};

/** Signs a person in through /auth/login (as a browser would) and talks to the console as them. */
export const signInToConsole = async (appUrl: string, login: string): Promise<ConsoleUser> => {
  const { browser } = await signInThroughBrowser(appUrl, login, '/console');
  let token: string | undefined;
  const get = async (path: string, headers: Record<string, string> = {}) => read(await browser.fetch(`${appUrl}${path}`, { headers }));
  const csrfToken = async () => {
    if (token) return token;
    token = csrfTokenIn((await get('/console')).html);
    if (!token) throw new Error('no CSRF token on the console pages');
    return token;
  };
  const post = async (path: string, form: Record<string, string | string[]>, options: { csrf?: false | string } = {}) => {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(form)) for (const v of [value].flat()) body.append(key, v);
    if (options.csrf !== false) body.set('_csrf', options.csrf ?? (await csrfToken()));
    return read(await browser.fetch(`${appUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }));
  };
  return { browser, get, post, csrfToken };
};

/** Calls the JSON API as the signed-in person (their session cookie); throws unless the expected status. */
export const apiAs = async (user: ConsoleUser, appUrl: string, method: string, path: string, body?: unknown, expected = 201) => {
  const res = await user.browser.fetch(`${appUrl}/api/v1${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
};

/**
 * A person's master data to issue from, made through the API: a GS1 registrar, the GTIN scheme, a GTIN,
 * an organisation, a facility and a product identified by the GTIN, and a managed DID to sign with.
 */
export const consoleMasterData = async (user: ConsoleUser, appUrl: string, names: { organisation?: string; product?: string } = {}) => {
  const api = (method: string, path: string, body?: unknown) => apiAs(user, appUrl, method, path, body);
  const registrar = await api('POST', '/registrars', { name: 'GS1', namespace: 'gs1', url: 'https://id.gs1.example' });
  const scheme = await api('POST', '/schemes', { registrarId: registrar.id, name: 'Global Trade Item Number (GTIN)', primaryKey: '01', validationPattern: '^\\d{14}$', linkTemplate: '/{primaryKey}/{value}' });
  const gtin = await api('POST', '/identifiers', { schemeId: scheme.id, value: '09520123456788' });
  const [organisation] = await api('POST', '/organisations', [{ name: names.organisation ?? 'Acme Batteries Pty Ltd' }]);
  const [facility] = await api('POST', '/facilities', [{ name: 'Acme Plant 7', operatingOrganisationId: organisation.id }]);
  const [product] = await api('POST', '/products', [{ name: names.product ?? 'Cell A1', level: 'MODEL', producedByOrganisationId: organisation.id, manufacturingFacilityId: facility.id, primaryIdentifierId: gtin.id }]);
  const did = await api('POST', '/dids', { type: 'MANAGED', method: 'DID_WEB', alias: `console-${crypto.randomUUID().slice(0, 8)}` });
  return { registrar, scheme, gtin, organisation, facility, product, did };
};
