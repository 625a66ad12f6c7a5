import lookup from 'country-code-lookup';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The pyx identity resolver 4.0 in executable form (contracts/identity-resolver.md), in-process:
 * Bearer API key, `/api/v4` prefix everywhere, scheme upsert (merged by `ai`), append-only link
 * registration checked against the registered scheme (primary identifier type, its unanchored regex,
 * qualifier keys and values, FIPS context codes → 422) with 409 duplicates, link ids found through the
 * list, soft and hard delete, `.well-known/resolver`, and the error bodies of the contract, in the
 * contract's order of checks. Default flags are stored as sent, not recalculated. `failNext` makes
 * the next calls 5xx, 403 or hang (timeouts).
 *
 * Like the real 4.0.0 on its object store: a registration reads its document, then writes it back
 * whole (`writeDelayMs` apart), so concurrent registrations to one document lose each other's links;
 * it accepts the same link twice in one registration (it only checks against the stored ones); it
 * strips `predecessor-version` from `rel` silently; every registration replaces the document's
 * description; a link id whose document lost the link answers "Link with ID … not found".
 */
export interface IdrDouble {
  url: string;
  apiKey: string;
  /** Stored responses by link id (the test can inspect or remove them to simulate upstream loss). */
  links: Map<string, StoredLink>;
  schemes: Map<string, RegisteredScheme>;
  /** Description of each document (by document key), as the last registration set it. */
  descriptions: Map<string, string>;
  calls: { method: string; path: string; auth?: string; body?: unknown }[];
  /**
   * The next `times` calls fail as `mode`; with `where`, only calls of that method and path prefix
   * count, after the first `skip` of them.
   */
  failNext(mode: FailureMode, times?: number, where?: FailureFilter): void;
  /** Registrations read their document, then wait until `release()` before writing it back. */
  pauseWrites(): { release(): void };
  close(): Promise<void>;
}

/**
 * `error`: 503; `forbidden`: 403 (a proxy refusing us); `hang`: no answer, nothing done; `drop`: the
 * call is carried out but never answered (a timeout after the write).
 */
export type FailureMode = 'error' | 'forbidden' | 'hang' | 'drop';
export interface FailureFilter {
  method?: string;
  path?: string;
  skip?: number;
}

export interface ApplicationIdentifier {
  title: string;
  label: string;
  shortcode: string;
  ai: string;
  type: 'I' | 'Q' | 'D';
  regex: string;
  qualifiers?: string[];
}

export interface RegisteredScheme extends Record<string, unknown> {
  namespace: string;
  applicationIdentifiers: ApplicationIdentifier[];
}

export interface StoredLink extends Record<string, unknown> {
  linkId: string;
  documentKey: string;
  active: boolean;
}

const LINK_TYPE = /^(gs1|untp):[A-Za-z]+$/;
const UNTP_TYPES = new Set(['dpp', 'dcc', 'dte', 'idr', 'dfr', 'dia', 'cvc']);
const HREFLANG = /(^\w{2}$)|(^\w{2}-\w{2}$)/;
const ACCESS_ROLES = new Set(['Anonymous', 'Customer', 'Regulator', 'Recycler', 'Auditor', 'Owner'].map((r) => `untp:accessRole#${r}`));
const QUALIFIER_PATH = /^\/([a-zA-Z0-9]+\/\w+(\/[a-zA-Z0-9]+\/\w+)*)?$/;
const QUALIFIER_PATH_QUERY = /^\/(\d+\/[\w\d]+(\/\d+\/[\w\d]+)*)?$/;
type Problem = { field: string; message: string };

/** An application identifier of the scheme by shortcode or ai (the resolver accepts both). */
const findAi = (scheme: RegisteredScheme, code: string) => scheme.applicationIdentifiers.find((a) => a.shortcode === code || a.ai === code);

const schemeProblems = (b: Record<string, unknown>): Problem[] => {
  if (typeof b.namespace !== 'string' || b.namespace === '') return [{ field: 'namespace', message: 'namespace should not be empty' }];
  if (!Array.isArray(b.applicationIdentifiers)) return [{ field: 'applicationIdentifiers', message: 'applicationIdentifiers must be an array' }];
  return (b.applicationIdentifiers as Record<string, unknown>[]).flatMap((a, i) => {
    const problems: Problem[] = [];
    for (const name of ['title', 'label', 'shortcode', 'regex']) {
      if (typeof a[name] !== 'string' || a[name] === '') problems.push({ field: `applicationIdentifiers.${i}.${name}`, message: `${name} should not be empty` });
    }
    if (!['I', 'Q', 'D'].includes(a.type as string)) problems.push({ field: `applicationIdentifiers.${i}.type`, message: 'type must be one of I, Q, D' });
    return problems;
  });
};

/** Where the resolver keeps a registration: by namespace, primary ai, key and qualifier path (ais). */
const documentKeyOf = (namespace: string, ai: string, key: string, qualifierPath: string) =>
  `${namespace}/${ai}/${key}${qualifierPath === '/' ? '' : qualifierPath}`;

/**
 * The registration's identifier set against its scheme (400 on the first problem), or the key of
 * its document, with shortcodes turned into ais.
 */
const identifiedDocument = (scheme: RegisteredScheme, keyType: string, key: string, qualifierPath: string): { problem: Problem } | { documentKey: string } => {
  const primary = findAi(scheme, keyType);
  if (!primary || primary.type !== 'I') return { problem: { field: 'identificationKeyType', message: `Identification key type '${keyType}' is not a primary identifier of '${scheme.namespace}'` } };
  if (!new RegExp(primary.regex).test(key)) return { problem: { field: 'identificationKey', message: `Identification key '${key}' does not match regex '${primary.regex}'` } };
  const segments = qualifierPath.split('/').filter(Boolean);
  let path = '';
  for (let i = 0; i < segments.length; i += 2) {
    const [code, value] = [segments[i]!, segments[i + 1]!];
    const qualifier = findAi(scheme, code);
    if (!qualifier || !(primary.qualifiers ?? []).includes(qualifier.ai)) {
      return { problem: { field: 'qualifierPath', message: `Qualifier '${code}' is not a qualifier of '${primary.ai}'` } };
    }
    if (!new RegExp(qualifier.regex).test(value)) {
      return { problem: { field: 'qualifierPath', message: `Qualifier value '${value}' does not match regex '${qualifier.regex}'` } };
    }
    path += `/${qualifier.ai}/${value}`;
  }
  return { documentKey: documentKeyOf(scheme.namespace, primary.ai, key, path || '/') };
};

/** FIPS country codes, as the resolver checks `context` (case-insensitive). */
const contextProblems = (responses: Record<string, unknown>[], field: (i: number) => string): Problem[] =>
  responses.flatMap((v, i) =>
    typeof v.context === 'string' && !lookup.byFips(v.context) ? [{ field: field(i), message: `Invalid context code: '${v.context}'` }] : [],
  );

const readBody = (req: IncomingMessage) =>
  new Promise<unknown>((resolve) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      try {
        resolve(raw ? JSON.parse(raw) : undefined);
      } catch {
        resolve(Symbol.for('malformed'));
      }
    });
  });

/** The value the resolver manages itself and drops from `rel` without a word. */
const MANAGED_REL = 'predecessor-version';
const withoutManagedRel = (v: Record<string, unknown>) =>
  Array.isArray(v.rel) ? { ...v, rel: (v.rel as unknown[]).filter((r) => r !== MANAGED_REL) } : v;
const RESERVED_ROOTS = new Set(['resolver', 'identifiers', 'voc', 'health-check', '.well-known']);

export const startIdrDouble = async (apiKey = 'idr-double-key', options: { writeDelayMs?: number } = {}): Promise<IdrDouble> => {
  const links = new Map<string, StoredLink>();
  const schemes = new Map<string, RegisteredScheme>();
  const descriptions = new Map<string, string>();
  /** Every link id ever registered (the resolver's `_index/links/<id>` objects). */
  const indexed = new Set<string>();
  const calls: IdrDouble['calls'] = [];
  let failures: { mode: FailureMode; times: number; where?: FailureFilter } | undefined;
  const unanswered = new WeakSet<ServerResponse>();
  const writeDelayMs = options.writeDelayMs ?? 20;
  let writesPaused: Promise<void> | undefined;

  const send = (res: ServerResponse, status: number, body: unknown, path: string) => {
    if (unanswered.has(res)) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status >= 400 ? { timestamp: new Date().toISOString(), path, ...(body as object) } : body));
  };

  const variantProblems = (v: Record<string, unknown>, i: number): Problem[] => {
    const problems: Problem[] = [];
    const f = (name: string) => `responses.${i}.${name}`;
    for (const name of ['linkType', 'title', 'targetUrl', 'mimeType', 'context']) {
      if (typeof v[name] !== 'string' || v[name] === '') problems.push({ field: f(name), message: `${name} should not be empty` });
    }
    if (typeof v.mimeType === 'string' && !/^\w+\/[-+.\w]+$/.test(v.mimeType)) problems.push({ field: f('mimeType'), message: 'Invalid mime type' });
    if (v.hreflang !== undefined && (!Array.isArray(v.hreflang) || v.hreflang.some((h) => typeof h !== 'string' || !HREFLANG.test(h)))) {
      problems.push({ field: f('hreflang'), message: 'hreflang must be a valid language code' });
    }
    if (v.encryptionMethod !== undefined && !['none', 'AES-128', 'AES-256'].includes(v.encryptionMethod as string)) {
      problems.push({ field: f('encryptionMethod'), message: 'Invalid encryption method' });
    }
    if (v.accessRole !== undefined && (!Array.isArray(v.accessRole) || v.accessRole.some((r) => !ACCESS_ROLES.has(r as string)))) {
      problems.push({ field: f('accessRole'), message: 'Invalid access role' });
    }
    return problems;
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://double');
    const path = url.pathname;
    const body = await readBody(req);
    calls.push({ method: req.method!, path: `${path}${url.search}`, auth: req.headers.authorization, body });
    const matches = (w?: FailureFilter) => {
      if (!w) return true;
      if ((w.method && w.method !== req.method) || (w.path && !path.startsWith(w.path))) return false;
      if (!w.skip) return true;
      w.skip -= 1;
      return false;
    };
    if (failures && failures.times > 0 && matches(failures.where)) {
      failures.times -= 1;
      if (failures.mode === 'drop') unanswered.add(res);
      else if (failures.mode === 'hang') return; // never answers: the client's timeout must fire
      else if (failures.mode === 'forbidden') return send(res, 403, { error: 'Forbidden' }, path);
      else return send(res, 503, { error: 'Internal server error' }, path);
    }
    // What a wrong base URL or path prefix meets: a 404 that is not the resolver's.
    if (!path.startsWith('/api/v4/')) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<html><body>404 Not Found</body></html>');
    }
    const route = path.slice('/api/v4'.length);
    if (route === '/health-check' && req.method === 'GET') return send(res, 200, { status: 'OK' }, path);
    const resolution = /^\/([^/]+)\/([^/]+)\/([^/]+)((?:\/[^/]+\/[^/]+)*)$/.exec(route);
    if (resolution && req.method === 'GET' && !RESERVED_ROOTS.has(resolution[1]!)) {
      const [, namespace, keyType, key, qualifiers] = resolution.map((part) => decodeURIComponent(part ?? ''));
      const scheme = schemes.get(namespace!);
      if (!scheme) return send(res, 404, { errors: [{ field: 'namespace', message: 'Identifier not found' }] }, path);
      const identified = identifiedDocument(scheme, keyType!, key!, qualifiers || '/');
      if ('problem' in identified) return send(res, 400, { errors: [identified.problem] }, path);
      const active = [...links.values()].filter((l) => l.documentKey === identified.documentKey && l.active);
      if (!descriptions.has(identified.documentKey) || active.length === 0) return send(res, 404, { error: 'Cannot resolve link resolver' }, path);
      const wantsLinkset = /linkset/.test(req.headers.accept ?? '') || url.searchParams.get('linkType') === 'all';
      if (!wantsLinkset) {
        res.writeHead(302, { location: String(active.at(-1)!.targetUrl) });
        return res.end();
      }
      const anchor = `http://127.0.0.1/api/v4/${identified.documentKey}`;
      const byType: Record<string, unknown[]> = {};
      for (const l of active) (byType[`http://127.0.0.1/api/v4/voc/${String(l.linkType).split(':')[1]}`] ??= []).push({ href: l.targetUrl, title: l.title, type: l.mimeType, hreflang: l.hreflang ?? [] });
      return send(res, 200, { linkset: [{ anchor, description: descriptions.get(identified.documentKey), ...byType }] }, path);
    }
    if (route === '/.well-known/resolver' && req.method === 'GET') {
      return send(res, 200, {
        name: 'IDR double',
        resolverRoot: `http://127.0.0.1/api/v4`,
        supportedLinkType: [
          { namespace: 'http://gs1.org/voc/', prefix: 'gs1:', profile: '/voc/?show=linktypes' },
          { namespace: 'https://vocabulary.uncefact.org/untp/linkType#', prefix: 'untp:', profile: '/voc/?show=linktypes' },
        ],
        supportedPrimaryKeys: ['all'],
      }, path);
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(res, 401, { error: 'Invalid API Key' }, path);
    if (body === Symbol.for('malformed')) return send(res, 400, { error: 'Invalid JSON' }, path);
    const b = (body ?? {}) as Record<string, unknown>;

    if (route === '/identifiers' && req.method === 'POST') {
      const problems = schemeProblems(b);
      if (problems.length) return send(res, 400, { errors: problems }, path);
      const incoming = (b.applicationIdentifiers as ApplicationIdentifier[]).map((a) => ({ ...a, ai: a.ai || a.shortcode }));
      const existing = schemes.get(b.namespace as string);
      const kept = (existing?.applicationIdentifiers ?? []).filter((a) => !incoming.some((n) => n.ai === a.ai));
      schemes.set(b.namespace as string, { ...existing, ...b, namespace: b.namespace as string, applicationIdentifiers: [...kept, ...incoming] });
      return send(res, 200, { message: 'Application identifier upserted successfully' }, path);
    }
    if (route === '/identifiers' && (req.method === 'GET' || req.method === 'DELETE')) {
      const namespace = url.searchParams.get('namespace');
      if (req.method === 'DELETE') {
        if (!namespace) return send(res, 400, { error: 'Namespace is required' }, path);
        schemes.delete(namespace);
        return send(res, 200, { message: 'Application identifier deleted successfully' }, path);
      }
      if (!namespace) return send(res, 200, [...schemes.values()], path);
      const scheme = schemes.get(namespace);
      if (!scheme) return send(res, 400, { error: `Identifier with namespace '${namespace}' not found` }, path);
      return send(res, 200, { ...scheme, id: `identifiers/${namespace}` }, path);
    }
    if (route === '/resolver' && req.method === 'POST') {
      const problems: { field: string; message: string }[] = [];
      for (const name of ['namespace', 'identificationKeyType', 'identificationKey', 'description']) {
        if (typeof b[name] !== 'string' || b[name] === '') problems.push({ field: name, message: `${name} should not be empty` });
      }
      const qualifierPath = (b.qualifierPath as string | undefined) ?? '/';
      if (!QUALIFIER_PATH.test(qualifierPath)) problems.push({ field: 'qualifierPath', message: 'Invalid qualifier path' });
      if (!Array.isArray(b.responses) || b.responses.length === 0) problems.push({ field: 'responses', message: 'responses should not be empty' });
      else (b.responses as Record<string, unknown>[]).forEach((v, i) => problems.push(...variantProblems(v, i)));
      if (problems.length) return send(res, 400, { errors: problems }, path);
      const scheme = schemes.get(b.namespace as string);
      if (!scheme) return send(res, 404, { errors: [{ field: 'namespace', message: 'Identifier not found' }] }, path);
      const identified = identifiedDocument(scheme, b.identificationKeyType as string, b.identificationKey as string, qualifierPath);
      if ('problem' in identified) return send(res, 400, { errors: [identified.problem] }, path);
      const { documentKey } = identified;
      const responses = (b.responses as Record<string, unknown>[]).map(withoutManagedRel);
      // The document as read now; written back whole below.
      const stored = [...links.values()].filter((l) => l.documentKey === documentKey).map((l) => ({ ...l }));
      const badContext = contextProblems(responses, (i) => `responses.${i}.context`);
      if (badContext.length) return send(res, 422, { errors: badContext }, path);
      for (const v of responses) {
        const duplicate = stored.some(
          (l) => l.targetUrl === v.targetUrl && l.linkType === v.linkType && l.mimeType === v.mimeType && l.context === v.context,
        );
        if (duplicate) {
          return send(res, 409, { statusCode: 409, message: `Duplicate responses already exist: linkType='${v.linkType}', mimeType='${v.mimeType}', context='${v.context}', targetUrl='${v.targetUrl}'`, error: 'Conflict' }, path);
        }
      }
      for (const v of responses) {
        const [prefix, key] = (v.linkType as string).split(':');
        if (!LINK_TYPE.test(v.linkType as string) || (prefix === 'untp' && !UNTP_TYPES.has(key!))) {
          return send(res, 404, { errors: [{ field: 'linkType', message: `Invalid link type '${v.linkType}'` }] }, path);
        }
      }
      await (writesPaused ?? new Promise((done) => setTimeout(done, writeDelayMs)));
      const now = new Date().toISOString();
      for (const l of [...links.values()]) if (l.documentKey === documentKey) links.delete(l.linkId);
      for (const l of stored) links.set(l.linkId, l);
      for (const v of responses) {
        const linkId = crypto.randomUUID();
        const { linkId: _ignored, ...fields } = v;
        indexed.add(linkId);
        links.set(linkId, { ...fields, linkId, documentKey, active: v.active !== false, createdAt: now, updatedAt: now });
      }
      descriptions.set(documentKey, b.description as string);
      return send(res, 201, { message: 'Link resolver registered successfully' }, path);
    }
    if (route === '/resolver/links' && req.method === 'GET') {
      const qp = url.searchParams.get('qualifierPath') ?? '/';
      if (!QUALIFIER_PATH_QUERY.test(qp)) return send(res, 400, { errors: [{ field: 'qualifierPath', message: 'Invalid qualifier path' }] }, path);
      const namespace = url.searchParams.get('namespace') ?? '';
      const keyType = url.searchParams.get('identificationKeyType') ?? '';
      const scheme = schemes.get(namespace);
      if (!scheme) return send(res, 404, { error: `Namespace '${namespace}' not found` }, path);
      const ai = findAi(scheme, keyType)?.ai ?? keyType;
      const documentKey = documentKeyOf(namespace, ai, url.searchParams.get('identificationKey') ?? '', qp);
      const found = [...links.values()].filter((l) => l.documentKey === documentKey);
      if (found.length === 0) return send(res, 404, { error: 'No link registration found for the specified identifier' }, path);
      return send(res, 200, found.map(({ documentKey: _d, ...l }) => l), path);
    }
    const linkRoute = /^\/resolver\/links\/([^/]+)$/.exec(route);
    if (linkRoute) {
      const id = decodeURIComponent(linkRoute[1]!);
      const link = links.get(id);
      if (!link && indexed.has(id)) return send(res, 404, { error: `Link with ID '${id}' not found` }, path);
      if (!link) return send(res, 404, { error: `Link index entry for ID '${id}' not found` }, path);
      if (req.method === 'GET') {
        const { documentKey: _d, ...rest } = link;
        return send(res, 200, rest, path);
      }
      if (req.method === 'PUT') {
        const { linkId: _a, createdAt: _b, updatedAt: _c, ...changes } = b;
        if (Object.keys(changes).length === 0) return send(res, 400, { error: 'Update request must include at least one field to update' }, path);
        const merged = withoutManagedRel({ ...link, ...changes });
        const problems = variantProblems(merged, 0);
        if (problems.length) return send(res, 400, { errors: problems.map((p) => ({ ...p, field: p.field.replace(/^responses\.0\./, '') })) }, path);
        const badContext = contextProblems([merged], () => 'context');
        if (badContext.length) return send(res, 422, { errors: badContext }, path);
        const clash = [...links.values()].find(
          (l) => l.linkId !== id && l.documentKey === link.documentKey && l.targetUrl === merged.targetUrl && l.linkType === merged.linkType && l.mimeType === merged.mimeType && l.context === merged.context,
        );
        if (clash) return send(res, 409, { statusCode: 409, message: `Duplicate responses already exist: linkType='${merged.linkType}', mimeType='${merged.mimeType}', context='${merged.context}', targetUrl='${merged.targetUrl}'`, error: 'Conflict' }, path);
        links.set(id, { ...merged, linkId: id, documentKey: link.documentKey, active: link.active, updatedAt: new Date().toISOString() } as StoredLink);
        return send(res, 200, { message: 'Link updated successfully' }, path);
      }
      if (req.method === 'DELETE') {
        const hard = ['true', '1'].includes(url.searchParams.get('hard') ?? '');
        if (hard) {
          links.delete(id);
          indexed.delete(id);
        } else links.set(id, { ...link, active: false, defaultLinkType: false, defaultMimeType: false, defaultContext: false });
        return send(res, 200, { message: 'Link deleted successfully' }, path);
      }
    }
    return send(res, 404, { error: 'Not Found' }, path);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey,
    links,
    schemes,
    descriptions,
    calls,
    pauseWrites: () => {
      let release = () => {};
      writesPaused = new Promise<void>((done) => (release = done));
      return {
        release: () => {
          writesPaused = undefined;
          release();
        },
      };
    },
    failNext: (mode, times = 1, where) => {
      failures = { mode, times, where: where && { ...where } };
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
};
