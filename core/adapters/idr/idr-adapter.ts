import * as z from 'zod';
import type { Fetcher } from '../../net/fetcher.ts';
import { upstreamJson } from '../adapter-errors.ts';
import { traceHeaders, type CallContext } from '../trace-headers.ts';
import { isIdrReason, sendToIdr } from './idr-errors.ts';

/** A stored response as the resolver answers it: the variant fields plus its `linkId`. */
const StoredLink = z.looseObject({
  linkId: z.string().min(1),
  linkType: z.string(),
  title: z.string(),
  targetUrl: z.string(),
  mimeType: z.string(),
  context: z.string(),
  active: z.boolean().optional(),
});
const Description = z.looseObject({ resolverRoot: z.string() });
const ApplicationIdentifier = z.looseObject({
  title: z.string(),
  label: z.string(),
  shortcode: z.string(),
  ai: z.string().optional(),
  type: z.string(),
  regex: z.string(),
  qualifiers: z.array(z.string()).optional(),
});
const Scheme = z.looseObject({ namespace: z.string(), applicationIdentifiers: z.array(ApplicationIdentifier) });
const Linkset = z.looseObject({ linkset: z.array(z.looseObject({ description: z.string().optional() })) });

/** IDR_ADAPTER config (validated by `core/service-instances/adapter-configs.ts`). */
export interface IdrConfig {
  baseUrl: string;
  apiKey: string;
  apiVersion: string;
  /** Unset: links take their credential type's link type. */
  defaultLinkType?: string;
  defaultMimeType: string;
  defaultLanguage: string;
  defaultContext?: string;
  defaultFwqs: boolean;
}

/** One link target as the resolver v4 stores it (a "response" in its vocabulary). */
export interface IdrLink {
  linkId?: string;
  linkType: string;
  title: string;
  targetUrl: string;
  mimeType: string;
  context: string;
  hreflang?: string[];
  encryptionMethod?: string;
  accessRole?: string[];
  rel?: string[];
  public?: boolean;
  method?: string;
  active?: boolean;
  defaultLinkType?: boolean;
  defaultMimeType?: boolean;
  defaultContext?: boolean;
  fwqs?: boolean;
}
export type StoredIdrLink = IdrLink & { linkId: string };

/** One resolver document: the links of an identifier (namespace, key type, key) and qualifier path. */
export interface IdrDocument {
  namespace: string;
  identificationKeyType: string;
  identificationKey: string;
  /** `/` or `/key/value` pairs. */
  qualifierPath: string;
}

export interface LinkRegistration extends IdrDocument {
  description: string;
  links: IdrLink[];
}

export interface SchemeRegistration {
  namespace: string;
  applicationIdentifiers: { title: string; label: string; shortcode: string; ai: string; type: 'I' | 'Q'; regex: string; qualifiers?: string[] }[];
}

export interface IdrAdapter {
  registerScheme(scheme: SchemeRegistration): Promise<void>;
  /** The namespace's registration as the resolver holds it, or undefined when it has none. */
  getScheme(namespace: string): Promise<z.infer<typeof Scheme> | undefined>;
  /** Appends links to the document (the resolver answers without their ids: see `listLinks`). */
  registerLinks(registration: LinkRegistration): Promise<void>;
  /** Every stored link of the document, inactive ones too; [] when the document does not exist. */
  listLinks(document: IdrDocument): Promise<StoredIdrLink[]>;
  /** The document's description, read from its public linkset; undefined when it does not resolve. */
  documentDescription(document: IdrDocument): Promise<string | undefined>;
  /** The live link, or undefined when the resolver no longer has it (its "not found" or soft-deleted). */
  getLink(linkId: string): Promise<IdrLink | undefined>;
  updateLink(linkId: string, changes: Partial<IdrLink>): Promise<void>;
  /** Hard delete; an already-absent link is not an error. */
  deleteLink(linkId: string): Promise<void>;
  describe(): Promise<Record<string, unknown>>;
  /**
   * Checks that the base URL reaches a resolver v4 and that it takes our key: its public
   * `.well-known/resolver` answers, and an authenticated look-up of an unknown link id gets its own
   * "link not found". Throws an IdrError (`route-missing`, `auth`, or unavailable) otherwise.
   */
  probe(): Promise<void>;
}

/** The resolver's composite key of a link within a document (its duplicate rule). */
export const idrLinkKey = (l: Pick<IdrLink, 'targetUrl' | 'linkType' | 'mimeType' | 'context'>) =>
  JSON.stringify([l.targetUrl, l.linkType, l.mimeType, l.context]);

/** Resolver v4 client: Bearer key, `/api/v4` prefix on every route (the `.well-known` one too). */
export const createIdrAdapter = (config: IdrConfig, fetcher: Fetcher, context: CallContext = {}): IdrAdapter => {
  const base = `${config.baseUrl.replace(/\/+$/, '')}/api/v4`;
  const headers = { authorization: `Bearer ${config.apiKey}`, 'content-type': 'application/json', ...traceHeaders(context) };
  const json = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    sendToIdr(() => fetcher(`${base}${path}`, { method, headers: { ...headers, ...extra }, body: body === undefined ? undefined : JSON.stringify(body) }));
  const documentQuery = (d: IdrDocument) =>
    new URLSearchParams({
      namespace: d.namespace,
      identificationKeyType: d.identificationKeyType,
      identificationKey: d.identificationKey,
      ...(d.qualifierPath !== '/' ? { qualifierPath: d.qualifierPath } : {}),
    });

  return {
    async registerScheme(scheme) {
      await json('POST', '/identifiers', scheme);
    },

    async getScheme(namespace) {
      try {
        return await upstreamJson('IDR', await json('GET', `/identifiers?${new URLSearchParams({ namespace })}`), Scheme);
      } catch (error) {
        if (isIdrReason(error, 'namespace-absent')) return undefined;
        throw error;
      }
    },

    async registerLinks(registration) {
      const responses = registration.links.map((link, i) => ({
        ...link,
        active: true,
        fwqs: link.fwqs ?? config.defaultFwqs,
        defaultLinkType: link.defaultLinkType ?? (i === 0 && link.linkType === config.defaultLinkType),
        defaultMimeType: link.defaultMimeType ?? link.mimeType === config.defaultMimeType,
        defaultContext: link.defaultContext ?? (config.defaultContext ? link.context === config.defaultContext : i === 0),
      }));
      await json('POST', '/resolver', {
        namespace: registration.namespace,
        identificationKeyType: registration.identificationKeyType,
        identificationKey: registration.identificationKey,
        qualifierPath: registration.qualifierPath,
        description: registration.description,
        active: true,
        responses,
      });
    },

    async listLinks(document) {
      try {
        return (await upstreamJson('IDR', await json('GET', `/resolver/links?${documentQuery(document)}`), z.array(StoredLink))) as StoredIdrLink[];
      } catch (error) {
        if (isIdrReason(error, 'document-absent')) return [];
        throw error;
      }
    },

    async documentDescription(d) {
      const path = `/${[d.namespace, d.identificationKeyType, d.identificationKey].map(encodeURIComponent).join('/')}${d.qualifierPath === '/' ? '' : d.qualifierPath}`;
      try {
        const res = await json('GET', `${path}?linkType=all`, undefined, { accept: 'application/linkset+json' });
        return (await upstreamJson('IDR', res, Linkset)).linkset[0]?.description;
      } catch (error) {
        if (isIdrReason(error, 'document-absent')) return undefined;
        throw error;
      }
    },

    async getLink(linkId) {
      try {
        const link = (await upstreamJson('IDR', await json('GET', `/resolver/links/${encodeURIComponent(linkId)}`), StoredLink)) as IdrLink;
        return link.active === false ? undefined : link;
      } catch (error) {
        if (isIdrReason(error, 'link-absent')) return undefined;
        throw error;
      }
    },

    async updateLink(linkId, changes) {
      await json('PUT', `/resolver/links/${encodeURIComponent(linkId)}`, changes);
    },

    async deleteLink(linkId) {
      try {
        await json('DELETE', `/resolver/links/${encodeURIComponent(linkId)}?hard=true`);
      } catch (error) {
        if (!isIdrReason(error, 'link-absent')) throw error;
      }
    },

    async describe() {
      return upstreamJson('IDR', await json('GET', '/.well-known/resolver'), Description);
    },

    async probe() {
      await this.describe();
      try {
        await json('GET', '/resolver/links/00000000-0000-4000-8000-000000000000');
      } catch (error) {
        if (isIdrReason(error, 'link-absent')) return;
        throw error;
      }
    },
  };
};
