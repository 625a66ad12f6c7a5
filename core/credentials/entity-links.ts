import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import {
  facilities,
  facilitySecondaryIdentifiers,
  identifierSchemes,
  identifiers,
  organisations,
  organisationSecondaryIdentifiers,
  products,
  productSecondaryIdentifiers,
} from '../../db/schema/index.ts';
import { prepared, tenantParam } from '../prepared-queries.ts';

export type EntityKind = 'product' | 'facility' | 'organisation';

/** An identifier of the tenant that the payload names, with the scheme it belongs to. */
export interface MatchedIdentifier {
  identifierId: string;
  schemeId: string;
  value: string;
}

/** The tenant's master data a credential is about: one of each kind, and the primary one (product > facility > organisation). */
export interface EntityLinks {
  productId: string | null;
  facilityId: string | null;
  organisationId: string | null;
  /** The entity the credential is primarily about, with every identifier of it the payload names. */
  primary?: { kind: EntityKind; entityId: string; identifiers: MatchedIdentifier[] };
}

const MAX_DEPTH = 8;
const IDENTIFYING_KEYS = new Set(['id', 'registeredId']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Identifying strings of the subject, breadth first (the subject's own id first), without repeats. */
const identifyingValues = (subject: unknown): string[] => {
  const found: string[] = [];
  let level: unknown[] = Array.isArray(subject) ? subject : [subject];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (Array.isArray(node)) next.push(...node);
      else if (isObject(node)) {
        for (const [key, value] of Object.entries(node)) {
          if (IDENTIFYING_KEYS.has(key) && typeof value === 'string' && value.trim() !== '' && !found.includes(value)) found.push(value);
          else if (typeof value === 'object' && value !== null) next.push(value);
        }
      }
    }
    level = next;
  }
  return found;
};

/** The (primary key, value) pairs of a resolver-style URL path (`…/01/09520123456788/10/LOT1`), and its last segment. */
const pathPairs = (candidate: string): { pairs: [string, string][]; segments: string[] } => {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { pairs: [], segments: [] };
  }
  const segments = url.pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  return { pairs: segments.slice(0, -1).map((s, i) => [s, segments[i + 1]!] as [string, string]), segments };
};

/**
 * The tenant's identifiers a set of identifying strings names: a string equal to an identifier's
 * value, or a URL whose path holds the scheme's primary key followed by the value (`/01/<gtin>`).
 * Ordered by the first string that names each.
 */
const matchIdentifiers = async (db: Queryable, tenantId: string, candidates: string[]): Promise<MatchedIdentifier[]> => {
  const parsed = candidates.map((c) => ({ raw: c, ...pathPairs(c) }));
  const values = [...new Set(parsed.flatMap((p) => [p.raw, ...p.segments]))];
  if (values.length === 0) return [];
  // One statement text whatever the number of values (`= any` of an array, not `in (…)`): prepared once per
  // connection, instead of parsed, described and planned on every issuance (two round trips to one).
  const rows = await prepared(db, 'issuance.identifiersNamed', (d) =>
    d
      .select({ identifierId: identifiers.id, schemeId: identifiers.schemeId, value: identifiers.value, primaryKey: identifierSchemes.primaryKey })
      .from(identifiers)
      .innerJoin(identifierSchemes, eq(identifierSchemes.id, identifiers.schemeId))
      .where(and(eq(identifiers.tenantId, tenantParam), sql`${identifiers.value} = any(${sql.placeholder('values')}::text[])`))
      .prepare('issuance_identifiers_named'),
  ).execute({ tenantId, values });
  const position = (row: (typeof rows)[number]) =>
    parsed.findIndex((p) => p.raw === row.value || p.pairs.some(([key, value]) => key === row.primaryKey && value === row.value));
  return rows
    .map((row) => ({ row, at: position(row) }))
    .filter((m) => m.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ row }) => ({ identifierId: row.identifierId, schemeId: row.schemeId, value: row.value }));
};

/** The tenant's entities of one kind that hold any of the identifiers (primary or secondary), as (entity, identifier) pairs. */
const holders = async (db: Queryable, tenantId: string, ids: string[]) => {
  const [productRows, productSecondary, facilityRows, facilitySecondary, organisationRows, organisationSecondary] = await Promise.all([
    db.select({ entityId: products.id, identifierId: products.primaryIdentifierId }).from(products).where(and(eq(products.tenantId, tenantId), inArray(products.primaryIdentifierId, ids))),
    db
      .select({ entityId: productSecondaryIdentifiers.ownerId, identifierId: productSecondaryIdentifiers.identifierId })
      .from(productSecondaryIdentifiers)
      .innerJoin(products, eq(products.id, productSecondaryIdentifiers.ownerId))
      .where(and(eq(products.tenantId, tenantId), inArray(productSecondaryIdentifiers.identifierId, ids))),
    db.select({ entityId: facilities.id, identifierId: facilities.primaryIdentifierId }).from(facilities).where(and(eq(facilities.tenantId, tenantId), inArray(facilities.primaryIdentifierId, ids))),
    db
      .select({ entityId: facilitySecondaryIdentifiers.ownerId, identifierId: facilitySecondaryIdentifiers.identifierId })
      .from(facilitySecondaryIdentifiers)
      .innerJoin(facilities, eq(facilities.id, facilitySecondaryIdentifiers.ownerId))
      .where(and(eq(facilities.tenantId, tenantId), inArray(facilitySecondaryIdentifiers.identifierId, ids))),
    db
      .select({ entityId: organisations.id, identifierId: organisations.primaryIdentifierId })
      .from(organisations)
      .where(and(eq(organisations.tenantId, tenantId), inArray(organisations.primaryIdentifierId, ids))),
    db
      .select({ entityId: organisationSecondaryIdentifiers.ownerId, identifierId: organisationSecondaryIdentifiers.identifierId })
      .from(organisationSecondaryIdentifiers)
      .innerJoin(organisations, eq(organisations.id, organisationSecondaryIdentifiers.ownerId))
      .where(and(eq(organisations.tenantId, tenantId), inArray(organisationSecondaryIdentifiers.identifierId, ids))),
  ]);
  return {
    product: [...productRows, ...productSecondary],
    facility: [...facilityRows, ...facilitySecondary],
    organisation: [...organisationRows, ...organisationSecondary],
  } as Record<EntityKind, { entityId: string; identifierId: string | null }[]>;
};

const KIND_ORDER: EntityKind[] = ['product', 'facility', 'organisation'];

/**
 * Which of the tenant's products, facilities and organisations a credential is about, from the
 * identifiers its subject names: one of each kind (the one named first), and the primary entity,
 * product before facility before organisation (the IDR publishing target).
 */
export const resolveEntityLinks = async (db: Queryable, tenantId: string, payload: Record<string, unknown>): Promise<EntityLinks> => {
  const matched = await matchIdentifiers(db, tenantId, identifyingValues(payload.credentialSubject));
  const none: EntityLinks = { productId: null, facilityId: null, organisationId: null };
  if (matched.length === 0) return none;
  const order = new Map(matched.map((m, i) => [m.identifierId, i]));
  const held = await holders(db, tenantId, matched.map((m) => m.identifierId));
  const firstOf = (kind: EntityKind) =>
    [...held[kind]].filter((h) => h.identifierId !== null).sort((a, b) => order.get(a.identifierId!)! - order.get(b.identifierId!)!)[0]?.entityId ?? null;
  const links: EntityLinks = { productId: firstOf('product'), facilityId: firstOf('facility'), organisationId: firstOf('organisation') };
  const kind = KIND_ORDER.find((k) => links[`${k}Id` as const] !== null);
  if (kind) {
    const entityId = links[`${kind}Id` as const]!;
    const ids = new Set(held[kind].filter((h) => h.entityId === entityId).map((h) => h.identifierId));
    links.primary = { kind, entityId, identifiers: matched.filter((m) => ids.has(m.identifierId)) };
  }
  return links;
};
