import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { dataModels } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';

/** The UNTP core credential types with their artefact codes and documentation slugs. */
const CORE_TYPES = {
  DigitalProductPassport: { code: 'dpp', file: 'DigitalProductPassport', slug: 'DigitalProductPassport', words: 'Digital Product Passport' },
  DigitalConformityCredential: { code: 'dcc', file: 'ConformityCredential', slug: 'ConformityCredential', words: 'Digital Conformity Credential' },
  DigitalFacilityRecord: { code: 'dfr', file: 'DigitalFacilityRecord', slug: 'DigitalFacilityRecord', words: 'Digital Facility Record' },
  DigitalIdentityAnchor: { code: 'dia', file: 'DigitalIdentityAnchor', slug: 'DigitalIdentityAnchor', words: 'Digital Identity Anchor' },
  DigitalTraceabilityEvent: { code: 'dte', file: 'DigitalTraceabilityEvent', slug: 'DigitalTraceabilityEvents', words: 'Digital Traceability Event' },
  ConformityScheme: { code: 'cvc', file: 'ConformityScheme', slug: 'ConformityVocabularyCatalog', words: 'Conformity Scheme' },
} as const;
type CoreType = keyof typeof CORE_TYPES;

/** Fixed ids, so every deployment (and the peer) names the same core models the same way. */
const IDS: Partial<Record<CoreType, Record<string, string>>> = {
  DigitalProductPassport: { '0.6.0': 'cxuj555flzqtp4ldvklv6ya39', '0.6.1': 'c1pxfzzkeb86jgeel7hrvmcle', '0.7.0': 'ca3frzta22f7lblxntvw6ukuh' },
  DigitalConformityCredential: { '0.6.0': 'c3imzyum0txv1y9xkww88aktp', '0.6.1': 'cttpz40pfgcfeue2wmbc3jti8', '0.7.0': 'ca9ndkrc8lxmtsfzwynui40zy' },
  DigitalFacilityRecord: { '0.6.0': 'ctfgtrsuiwv1fedo9t5swxhnk', '0.6.1': 'csrtste8ai2llop7ui8u6n11l', '0.7.0': 'cj3s37lt6pvh56ggspr9upt5m' },
  DigitalIdentityAnchor: { '0.6.0': 'cz9raijqcay5nzmq59geoggrk', '0.6.1': 'cn5u63huxvqgdwppebaxmqt9l', '0.7.0': 'cw0tzf723j1oql3u4s1r0c2g2' },
  DigitalTraceabilityEvent: { '0.6.0': 'crqvpwffc0k2p4bvr8za1ii6j', '0.6.1': 'cwb7m3k0hpz9xqft6rjn2oe4s', '0.7.0': 'cfhlj3bumipb74z8irp6uiuxn' },
  ConformityScheme: { '0.7.0': 'c4fxk5o3sqrm6n0u7c7akm0sb' },
};

const urlsFor = (type: CoreType, version: string) => {
  const { code, file, slug } = CORE_TYPES[type];
  if (version.startsWith('0.6.')) {
    return {
      schemaUrl: `https://test.uncefact.org/vocabulary/untp/${code}/untp-${code}-schema-${version}.json`,
      contextUrl: `https://test.uncefact.org/vocabulary/untp/${code}/${version}/context/`,
      // 0.6.1 has no documentation of its own; it points at 0.6.0's.
      websiteUrl: `https://untp.unece.org/docs/0.6.0/specification/${slug}`,
    };
  }
  return {
    schemaUrl: `https://untp.unece.org/artefacts/schema/v${version}/${code}/${file}.json`,
    contextUrl: `https://vocabulary.uncefact.org/untp/${version}/context/`,
    websiteUrl: `https://untp.unece.org/docs/specification/${slug}`,
  };
};

export const CORE_DATA_MODELS = Object.entries(IDS).flatMap(([type, versions]) =>
  Object.entries(versions!).map(([version, id]) => ({
    id,
    tenantId: SYSTEM_TENANT_ID,
    name: `${CORE_TYPES[type as CoreType].words} v${version}`,
    credentialType: type,
    version,
    isExtension: false,
    parentConfigId: null,
    ...urlsFor(type as CoreType, version),
  })),
);

/** Idempotent: core models upserted by their fixed ids at every start. */
export const seedCoreDataModels = async (db: Queryable): Promise<void> => {
  await db
    .insert(dataModels)
    .values(CORE_DATA_MODELS)
    .onConflictDoUpdate({
      target: dataModels.id,
      set: {
        name: sql`excluded.name`,
        schemaUrl: sql`excluded.schema_url`,
        contextUrl: sql`excluded.context_url`,
        websiteUrl: sql`excluded.website_url`,
      },
    });
};
