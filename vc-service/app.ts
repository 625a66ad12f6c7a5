import { Hono, type Context } from 'hono';
import type { Logger } from '../core/logging/logger.ts';
import { MAX_LISTED, payloadDigest, type CorrelatedEvents } from './correlated-events.ts';
import type { Fetcher } from '../core/net/fetcher.ts';
import { apiKeyChecker } from '../core/service-kit/api-key.ts';
import type { DidResolver } from './did-resolver.ts';
import { didDocument, didOfDocumentRequest } from './did-web.ts';
import { asObject, invalidArgument, notFoundError, requiredText, VcError } from './errors.ts';
import type { IdentifierStore } from './identifiers.ts';
import { issueCredential, issuerIdOf } from './signing.ts';
import { checkStatus, STATUS_LIST_PATH, type StatusLists } from './status-lists.ts';
import { createJwsChecker } from './jws-check.ts';
import { createRemoteStatusLists } from './remote-status-lists.ts';
import { createStatusReader } from './status-reader.ts';
import { createVerifier } from './verification.ts';
import { replacedRoute } from './replaced-routes.ts';
import { LIST_MEDIA_TYPES, preferredListForm } from './status-list-forms.ts';

const CORRELATION_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** Largest JSON body accepted (a credential with an embedded render template fits easily). */
export const MAX_BODY_BYTES = 1_048_576;

interface VcEnv {
  /** tracedId: the caller's own correlation id, when it sent one (what correlated events are recorded under). */
  Variables: { correlationId: string; tracedId: string | undefined };
}

export interface VcAppDeps {
  apiKey: string;
  identifiers: IdentifierStore;
  resolver: DidResolver;
  statusLists: StatusLists;
  /** The guarded fetch other services' status lists are read through. */
  fetchStatusList: Fetcher;
  /** Signatures and status entries recorded under the caller's correlation id. */
  events: CorrelatedEvents;
  logger: Logger;
}

const readJsonObject = async (c: Context): Promise<Record<string, unknown>> => {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw new VcError(413, 'too_large', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  const text = await c.req.text();
  if (text.length > MAX_BODY_BYTES) throw new VcError(413, 'too_large', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    throw invalidArgument('the body is not valid JSON');
  }
  return asObject(body, 'body');
};

const optionalEqual = (body: Record<string, unknown>, field: string, allowed: string) => {
  if (body[field] !== undefined && body[field] !== allowed) throw invalidArgument(`${field} must be ${allowed}`);
};

/**
 * The VC service: the VCkit routes our VC adapter uses (contracts/vckit.md C.1–C.5). Everything
 * under /v2 and /agent needs `Authorization: Bearer <API_KEY>`; DID documents and status lists are public.
 */
export const buildVcApp = (deps: VcAppDeps) => {
  const { identifiers, resolver, statusLists, logger } = deps;
  const checkJws = createJwsChecker({ resolver });
  const readStatus = createStatusReader({ statusLists, remote: createRemoteStatusLists({ fetcher: deps.fetchStatusList, checkJws }) });
  const verify = createVerifier({ checkJws, readStatus });
  const app = new Hono<VcEnv>();

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-correlation-id');
    const id = incoming && CORRELATION_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set('correlationId', id);
    c.set('tracedId', id === incoming ? id : undefined);
    c.header('x-correlation-id', id);
    await next();
    logger.debug('request', { correlationId: id, method: c.req.method, path: c.req.path, status: c.res.status });
  });

  app.get('/health-check', (c) => c.text('OK'));

  const serveDocument = async (c: Context, segments: string[]) => {
    const did = didOfDocumentRequest(c.req.header('host') ?? '', segments);
    const identifier = await identifiers.get(did);
    if (!identifier) throw notFoundError(`no DID document for ${did}`);
    c.header('cache-control', 'public, max-age=300');
    return c.json(didDocument(did, identifier.keys.map((k) => k.publicKeyHex)), 200, { 'content-type': 'application/did+json' });
  };
  app.get('/.well-known/did.json', (c) => serveDocument(c, []));
  app.get('*', async (c, next) => {
    const path = c.req.path;
    if (!path.endsWith('/did.json') || path.startsWith('/.well-known/')) return next();
    const segments = path.slice(1, -'/did.json'.length).split('/');
    if (segments.some((s) => !/^[A-Za-z0-9._~%-]+$/.test(s))) throw notFoundError('no such DID document');
    return serveDocument(c, segments);
  });

  app.get(`${STATUS_LIST_PATH}/:id`, async (c) => {
    const list = await statusLists.published(c.req.param('id'));
    if (!list) throw notFoundError(`status list ${c.req.param('id')} not found`);
    const form = preferredListForm(c.req.header('accept'));
    if (!form) throw new VcError(406, 'not_acceptable', `the status list is served as ${LIST_MEDIA_TYPES.join(' or ')}`);
    const served = form === 'jws' ? { text: list.jws, etag: `${list.etag.slice(0, -1)}-jws"`, type: 'application/vc+jwt' } : { ...list, type: 'application/json; charset=utf-8' };
    // Revalidated on every use (a revocation must show at once); unchanged lists answer 304.
    const headers = { etag: served.etag, 'cache-control': 'public, no-cache', vary: 'Accept' };
    const conditional = c.req.header('if-none-match');
    if (conditional?.split(',').some((tag) => tag.trim() === served.etag || tag.trim() === '*')) return c.body(null, 304, headers);
    return c.body(served.text, 200, { ...headers, 'content-type': served.type });
  });

  const isValidKey = apiKeyChecker(deps.apiKey);
  const requireApiKey = async (c: Context, next: () => Promise<void>) => {
    const [scheme, token] = (c.req.header('authorization') ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token || !isValidKey(token)) {
      throw new VcError(401, 'unauthorized', 'send Authorization: Bearer <API_KEY>');
    }
    await next();
  };
  app.use('/v2/*', requireApiKey);
  app.use('/agent/*', requireApiKey);

  app.post('/v2/credentials/issue', async (c) => {
    const body = await readJsonObject(c);
    const verifiableCredential = await issueCredential(identifiers, body);
    const traced = c.get('tracedId');
    if (traced) {
      const credential = body.credential as Record<string, unknown>;
      const credentialId = typeof credential.id === 'string' ? credential.id : null;
      await deps.events.record(traced, { kind: 'signature', issuer: issuerIdOf(credential)!, credentialId, payloadDigest: await payloadDigest(credential) });
    }
    return c.json({ verifiableCredential }, 201);
  });

  // Every status entry minted under a correlation id, a page at a time, with its purpose and whether its bit is set:
  // the operator's orphan sweep compares them with the entries the main API's records own.
  app.get('/v2/correlations', async (c) => {
    const after = c.req.query('after') ?? '0';
    const limit = Number(c.req.query('limit') ?? MAX_LISTED);
    if (!/^\d{1,18}$/.test(after)) throw invalidArgument('after must be the id of the last entry of the previous page');
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LISTED) throw invalidArgument(`limit must be an integer from 1 to ${MAX_LISTED}`);
    const entries = await deps.events.listStatusEntries(after, limit);
    const described = await Promise.all(
      entries.map(async (e) => {
        const hash = e.statusEntry.lastIndexOf('#');
        const bit = await statusLists.bitOf({ statusListCredential: e.statusEntry.slice(0, hash), statusListIndex: e.statusEntry.slice(hash + 1) });
        return { ...e, statusPurpose: bit?.purpose ?? null, bitSet: bit?.set ?? null };
      }),
    );
    return c.json({ entries: described, ...(entries.length === limit ? { next: entries.at(-1)!.id } : {}) }, 200);
  });

  // What this service did for one correlation id (our own route, not VCkit's): the operator's trace of a batch item.
  app.get('/v2/correlations/:id', async (c) => {
    const id = c.req.param('id');
    if (!CORRELATION_ID.test(id)) throw invalidArgument('the correlation id must be 1 to 128 letters, digits, _ or -');
    return c.json({ correlationId: id, events: await deps.events.byCorrelation(id) }, 200);
  });

  // VC-API verify, as VCkit serves it: the credential under `verifiableCredential`, the answer routeVerificationCredential's.
  app.post('/v2/credentials/verify', async (c) => {
    const body = await readJsonObject(c);
    const credential = asObject(body.verifiableCredential, 'verifiableCredential');
    return c.json(await verify({ credential, policies: { credentialStatus: true } }), 200);
  });

  const agent: Record<string, (body: Record<string, unknown>, tracedId: string | undefined) => Promise<unknown>> = {
    didManagerCreate: async (body) => {
      optionalEqual(body, 'provider', 'did:web');
      optionalEqual(body, 'kms', 'local');
      if (body.options !== undefined) optionalEqual(asObject(body.options, 'options'), 'keyType', 'Ed25519');
      return identifiers.create(requiredText(body, 'alias'));
    },
    didManagerGet: async (body) => (await identifiers.get(requiredText(body, 'did'))) ?? Promise.reject(notFoundError('Identifier not found')),
    didManagerFind: async (body) => {
      for (const field of ['alias', 'provider']) {
        if (body[field] !== undefined && typeof body[field] !== 'string') throw invalidArgument(`${field} must be a string`);
      }
      return identifiers.find({ alias: body.alias as string | undefined, provider: body.provider as string | undefined });
    },
    /** Ours, not Veramo's: a new signing key for a DID held here; the old keys stay in its document for verifying. */
    didManagerRotateKey: async (body) => (await identifiers.rotateKey(requiredText(body, 'did'))) ?? Promise.reject(notFoundError('Identifier not found')),
    didManagerDelete: async (body) => (await identifiers.delete(requiredText(body, 'did'))) || Promise.reject(notFoundError('Identifier not found')),
    resolveDid: async (body) => {
      const did = requiredText(body, 'didUrl').split(/[#?]/)[0]!;
      const resolved = await resolver.resolve(did);
      return 'document' in resolved
        ? { didDocument: resolved.document, didResolutionMetadata: { contentType: 'application/did+ld+json' }, didDocumentMetadata: {} }
        : { didDocument: null, didResolutionMetadata: { error: 'notFound', message: resolved.error }, didDocumentMetadata: {} };
    },
    routeVerificationCredential: verify,
    // Veramo's own name for the same verification.
    verifyCredential: verify,
    issueBitstringStatusList: async (body, traced) => {
      const entry = await statusLists.mint(body);
      if (traced) await deps.events.record(traced, { kind: 'status-entry', issuer: String(body.bitstringStatusIssuer), statusEntry: entry.id });
      return entry;
    },
    setBitstringStatus: (body) => statusLists.set(body),
    checkBitstringStatus: (body) => checkStatus(readStatus, body),
  };
  app.post('/agent/:method', async (c) => {
    const replaced = replacedRoute('POST', c.req.path);
    if (replaced) throw replaced;
    const handler = Object.hasOwn(agent, c.req.param('method')) ? agent[c.req.param('method')] : undefined;
    if (!handler) throw notFoundError(`no agent method ${c.req.param('method')}`);
    return c.json((await handler(await readJsonObject(c), c.get('tracedId'))) as object, 200);
  });

  app.notFound((c) => {
    const replaced = replacedRoute(c.req.method, c.req.path);
    return c.json({ error: replaced?.message ?? 'not_found: no such route' }, 404);
  });
  app.onError((error, c) => {
    if (error instanceof VcError) return c.json({ error: error.message }, error.status);
    logger.error('Unhandled error', { correlationId: c.get('correlationId'), path: c.req.path, error: String(error) });
    return c.json({ error: `internal: An unexpected error occurred (correlation id ${c.get('correlationId')})` }, 500);
  });
  return app;
};
