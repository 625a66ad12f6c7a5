import { badRequest, conflict } from '../errors.ts';
import { assertPublicUrl } from '../net/public-url.ts';
import { idrLinkKey, type IdrLink } from '../adapters/idr/idr-adapter.ts';
import type { LinkInput, PublishedLink } from './link-fields.ts';

/** The rel the resolver manages itself (its linkset's old URLs) and silently drops when sent. */
export const RESOLVER_MANAGED_REL = 'predecessor-version';

/** Every href is a public absolute http(s) URL without credentials (400 naming the field). */
export const assertHrefs = (links: Partial<LinkInput>[], allowPrivate: boolean, prefix: (i: number) => string) =>
  links.forEach((link, i) => {
    if (link.href !== undefined) assertPublicUrl(`${prefix(i)}href`, link.href, allowPrivate);
  });

/**
 * No additionalRels entry the resolver would drop: the local record must never claim a rel that is
 * not published (400 naming the entry).
 */
export const assertPublishableRels = (links: Partial<LinkInput>[], prefix: (i: number) => string) =>
  links.forEach((link, i) =>
    link.additionalRels?.forEach((rel, j) => {
      if (rel.trim().toLowerCase() === RESOLVER_MANAGED_REL) {
        throw badRequest(`${prefix(i)}additionalRels[${j}]: ${RESOLVER_MANAGED_REL} is managed by the identity resolver and cannot be published`);
      }
    }),
  );

export const canonical = <T extends Partial<LinkInput>>(link: T): T => (link.href ? { ...link, href: new URL(link.href).href } : link);

/**
 * The resolver keeps one link per (href, rel, type, context) in a document; ours share one context,
 * so two links of one request with the same href, rel and type would be stored twice and could not be
 * told apart (400 naming the later index).
 */
export const assertDistinctLinks = (links: PublishedLink[]) => {
  const seen = new Map<string, number>();
  links.forEach((link, i) => {
    const key = JSON.stringify([link.href, link.rel, link.type]);
    const first = seen.get(key);
    if (first !== undefined) throw badRequest(`links[${i}]: the same href, rel and type as links[${first}]`);
    seen.set(key, i);
  });
};

/** 409 naming the index of a link the resolver document already holds (live or not: it refuses both). */
export const assertNotYetPublished = (links: IdrLink[], stored: IdrLink[]) => {
  const keys = new Set(stored.map(idrLinkKey));
  links.forEach((link, i) => {
    if (keys.has(idrLinkKey(link))) {
      throw conflict(`links[${i}]: already published for this identifier and qualifier path (same href, rel and type)`, 'LINK_ALREADY_PUBLISHED');
    }
  });
};
