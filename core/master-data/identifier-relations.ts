import { asc } from 'drizzle-orm';
import { schemeQualifiers } from '../../db/schema/index.ts';

/**
 * How an identifier is loaded inside a master-data record's single response: with its scheme, the
 * scheme's registrar and qualifiers (the same shape `GET /identifiers/{id}` returns).
 */
export const identifierWithScheme = {
  with: {
    scheme: {
      with: {
        registrar: true as const,
        qualifiers: { orderBy: [asc(schemeQualifiers.order), asc(schemeQualifiers.key)] },
      },
    },
  },
};

/** Secondary identifier link rows, each with its identifier loaded as above. */
export const secondaryIdentifiersWithScheme = {
  with: { identifier: identifierWithScheme },
};
