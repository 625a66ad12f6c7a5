import { readFile } from 'node:fs/promises';
import { Ajv } from 'ajv';
import type { Queryable } from '../../db/client.ts';
import { cvcCriteria, cvcProfiles, cvcSchemes } from '../../db/schema/index.ts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Fetcher } from '../net/fetcher.ts';
import { CONFORMITY_SCHEME_DOCUMENT_SCHEMA } from './scheme-document.schema.ts';

const validate = new Ajv({ allErrors: false, strict: false }).compile(CONFORMITY_SCHEME_DOCUMENT_SCHEMA);

interface Topic {
  id: string;
  name?: string;
  definition?: string;
}
interface SchemeDocument {
  id: string;
  name: string;
  owner?: { id?: string; name?: string };
  conformsTo?: { linkName?: string };
  '@context'?: unknown[];
  includedProfile: {
    id: string;
    name: string;
    version?: string;
    status?: string;
    validFrom?: string;
    criterion?: { id: string; name: string; version?: string; status?: string; tags?: string[]; conformityTopic?: Topic[] }[];
  }[];
}

/** The catalogue specification version a document conforms to (from conformsTo or its UNTP context). */
const specVersionOf = (doc: SchemeDocument): string | null => {
  const fromLink = doc.conformsTo?.linkName?.match(/v?(\d+\.\d+\.\d+)/)?.[1];
  if (fromLink) return fromLink;
  const context = (doc['@context'] ?? []).find((c): c is string => typeof c === 'string' && /\/untp\/\d+\.\d+\.\d+\//.test(c));
  return context?.match(/\/untp\/(\d+\.\d+\.\d+)\//)?.[1] ?? null;
};

/** Parses and validates one document; the error names the source and the failing path. */
export const parseSchemeDocument = (source: string, text: string): SchemeDocument => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not valid JSON (${(error as Error).message})`);
  }
  if (!validate(json)) {
    const [issue] = validate.errors ?? [];
    throw new Error(`${source}: not a conformity scheme document (${issue?.instancePath || '/'} ${issue?.message ?? 'is invalid'})`);
  }
  return json as unknown as SchemeDocument;
};

/** Reads a document from a file or (through the guarded fetch) a URL. */
export const loadSchemeDocument = async (source: { file?: string; url?: string }, fetcher: Fetcher): Promise<SchemeDocument> => {
  if (source.file) return parseSchemeDocument(source.file, await readFile(source.file, 'utf8'));
  const res = await fetcher(source.url!, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${source.url}: HTTP ${res.status}`);
  return parseSchemeDocument(source.url!, await res.text());
};

/** Replaces an owner's catalogue entries for each document's scheme with the document's content. */
export const applySchemeDocuments = async (tx: Queryable, tenantId: string, docs: SchemeDocument[]): Promise<void> => {
  for (const doc of docs) {
    const oldProfiles = await tx.select({ id: cvcProfiles.id }).from(cvcProfiles).where(and(eq(cvcProfiles.tenantId, tenantId), eq(cvcProfiles.schemeId, doc.id)));
    if (oldProfiles.length > 0) {
      await tx.delete(cvcCriteria).where(and(eq(cvcCriteria.tenantId, tenantId), inArray(cvcCriteria.profileId, oldProfiles.map((p) => p.id))));
      await tx.delete(cvcProfiles).where(and(eq(cvcProfiles.tenantId, tenantId), eq(cvcProfiles.schemeId, doc.id)));
    }
    const owner = doc.owner ? { ...(doc.owner.id ? { canonicalId: doc.owner.id } : {}), ...(doc.owner.name ? { name: doc.owner.name } : {}) } : null;
    await tx
      .insert(cvcSchemes)
      .values({ tenantId, id: doc.id, name: doc.name, specVersion: specVersionOf(doc), owner })
      .onConflictDoUpdate({ target: [cvcSchemes.tenantId, cvcSchemes.id], set: { name: doc.name, specVersion: specVersionOf(doc), owner, updatedAt: new Date() } });
    const profiles = doc.includedProfile.map((p) => ({
      tenantId,
      id: p.id,
      schemeId: doc.id,
      name: p.name,
      version: p.version ?? null,
      status: p.status ?? null,
      validFrom: p.validFrom ?? null,
    }));
    if (profiles.length > 0) await tx.insert(cvcProfiles).values(profiles).onConflictDoNothing();
    const criteria = doc.includedProfile.flatMap((p) =>
      (p.criterion ?? []).map((c) => ({
        tenantId,
        id: c.id,
        profileId: p.id,
        name: c.name,
        version: c.version ?? null,
        status: c.status ?? null,
        topics: (c.conformityTopic ?? []).map((t) => ({ canonicalId: t.id, ...(t.name ? { name: t.name } : {}), ...(t.definition ? { definition: t.definition } : {}) })),
        tags: c.tags ?? [],
      })),
    );
    if (criteria.length > 0) await tx.insert(cvcCriteria).values(criteria).onConflictDoNothing();
  }
};
