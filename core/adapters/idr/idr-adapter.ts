import { z } from 'zod';
import type { Fetcher } from '../../net/fetcher.ts';
import { AdapterError, callUpstream, upstreamJson } from '../adapter-errors.ts';

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

/** IDR_ADAPTER config (validated by `core/service-instances/adapter-configs.ts`). */
export interface IdrConfig {
  baseUrl: string;
  apiKey: string;
  apiVersion: string;
  defaultLinkType: string;
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

export interface LinkRegistration {
  namespace: string;
  identificationKeyType: string;
  identificationKey: string;
  qualifierPath?: string;
  description: string;
  links: IdrLink[];
}

export interface SchemeRegistration {
  namespace: string;
  applicationIdentifiers: { title: string; label: string; shortcode: string; ai: string; type: 'I' | 'Q'; regex: string; qualifiers?: string[] }[];
}

export interface IdrAdapter {
  registerScheme(scheme: SchemeRegistration): Promise<void>;
  /** Publishes links; returns them with the ids the resolver gave them, in the order given. */
  publishLinks(registration: LinkRegistration): Promise<(IdrLink & { linkId: string })[]>;
  /** The live link, or undefined when the resolver no longer has it (404 or soft-deleted). */
  getLink(linkId: string): Promise<IdrLink | undefined>;
  updateLink(linkId: string, changes: Partial<IdrLink>): Promise<void>;
  /** Hard delete; an already-absent link is not an error. */
  deleteLink(linkId: string): Promise<void>;
  describe(): Promise<Record<string, unknown>>;
}

const sameTarget = (a: IdrLink, b: IdrLink) =>
  a.targetUrl === b.targetUrl && a.linkType === b.linkType && a.mimeType === b.mimeType && a.context === b.context;

/** Resolver v4 client: Bearer key, `/api/v4` prefix on every route (the `.well-known` one too). */
export const createIdrAdapter = (config: IdrConfig, fetcher: Fetcher): IdrAdapter => {
  const base = `${config.baseUrl.replace(/\/+$/, '')}/api/v4`;
  const headers = { authorization: `Bearer ${config.apiKey}`, 'content-type': 'application/json' };
  const json = (method: string, path: string, body?: unknown) =>
    callUpstream('IDR', () => fetcher(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));

  const isAbsent = (error: unknown) => error instanceof AdapterError && error.kind === 'rejected' && (error.status === 404 || error.status === 410);

  return {
    async registerScheme(scheme) {
      await json('POST', '/identifiers', scheme);
    },

    async publishLinks(registration) {
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
        qualifierPath: registration.qualifierPath ?? '/',
        description: registration.description,
        active: true,
        responses,
      });
      // The resolver answers without ids: read the registration back and match each new target.
      const query = new URLSearchParams({
        namespace: registration.namespace,
        identificationKeyType: registration.identificationKeyType,
        identificationKey: registration.identificationKey,
        ...(registration.qualifierPath && registration.qualifierPath !== '/' ? { qualifierPath: registration.qualifierPath } : {}),
      });
      const stored = (await upstreamJson('IDR', await json('GET', `/resolver/links?${query}`), z.array(StoredLink))) as (IdrLink & { linkId: string })[];
      return responses.map((link) => {
        const match = stored.find((s) => s.active !== false && sameTarget(s, link));
        if (!match) throw new AdapterError('unavailable', 'IDR', 'The resolver accepted the links but does not list them');
        return { ...link, linkId: match.linkId };
      });
    },

    async getLink(linkId) {
      try {
        const link = (await upstreamJson('IDR', await json('GET', `/resolver/links/${encodeURIComponent(linkId)}`), StoredLink)) as IdrLink;
        return link.active === false ? undefined : link;
      } catch (error) {
        if (isAbsent(error)) return undefined;
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
        if (!isAbsent(error)) throw error;
      }
    },

    async describe() {
      return upstreamJson('IDR', await json('GET', '/.well-known/resolver'), Description);
    },
  };
};
