import type { IdrConfig, IdrLink } from '../adapters/idr/idr-adapter.ts';

/** A link as the API takes it (publish and PATCH), after validation. */
export interface LinkInput {
  href: string;
  rel: string;
  type: string;
  title?: string;
  hreflang?: string[];
  context?: string;
  default?: boolean;
  method?: 'GET' | 'POST';
  encryptionMethod?: 'none' | 'AES-128' | 'AES-256';
  accessRole?: string[];
  additionalRels?: string[];
  public?: boolean;
}

/** The fields that travel upstream (context, default and method are accepted and ignored). */
export type PublishedLink = Omit<LinkInput, 'context' | 'default' | 'method'>;

export const publishedFields = (link: Partial<LinkInput>): Partial<PublishedLink> => {
  const { context: _c, default: _d, method: _m, ...published } = link;
  return Object.fromEntries(Object.entries(published).filter(([, v]) => v !== undefined)) as Partial<PublishedLink>;
};

/**
 * Our link as a resolver v4 response: rel → linkType, href → targetUrl, type → mimeType, title (the
 * rel when absent), the instance's default context (the resolver requires one), and the optional
 * fields only when set, so an omitted encryptionMethod stays absent on the wire.
 */
export const toIdrLink = (link: PublishedLink, config: IdrConfig): IdrLink => ({
  linkType: link.rel,
  title: link.title ?? link.rel,
  targetUrl: link.href,
  mimeType: link.type,
  context: config.defaultContext ?? 'au',
  ...(link.hreflang ? { hreflang: link.hreflang } : {}),
  ...(link.encryptionMethod ? { encryptionMethod: link.encryptionMethod } : {}),
  ...(link.accessRole ? { accessRole: link.accessRole } : {}),
  ...(link.additionalRels ? { rel: link.additionalRels } : {}),
  ...(link.public !== undefined ? { public: link.public } : {}),
});

/** The upstream fields a PATCH changes. */
export const toIdrChanges = (patch: Partial<PublishedLink>): Partial<IdrLink> => ({
  ...(patch.rel !== undefined ? { linkType: patch.rel } : {}),
  ...(patch.title !== undefined ? { title: patch.title } : {}),
  ...(patch.href !== undefined ? { targetUrl: patch.href } : {}),
  ...(patch.type !== undefined ? { mimeType: patch.type } : {}),
  ...(patch.hreflang !== undefined ? { hreflang: patch.hreflang } : {}),
  ...(patch.encryptionMethod !== undefined ? { encryptionMethod: patch.encryptionMethod } : {}),
  ...(patch.accessRole !== undefined ? { accessRole: patch.accessRole } : {}),
  ...(patch.additionalRels !== undefined ? { rel: patch.additionalRels } : {}),
  ...(patch.public !== undefined ? { public: patch.public } : {}),
});
