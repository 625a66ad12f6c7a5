/**
 * What this service needs from a UNTP ConformityScheme document (our own JSON Schema of the parts we
 * read; other properties are allowed and ignored).
 */
export const CONFORMITY_SCHEME_DOCUMENT_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['id', 'name', 'includedProfile'],
  properties: {
    id: { type: 'string', pattern: '^https?://' },
    name: { type: 'string', minLength: 1 },
    owner: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
    conformsTo: { type: 'object', properties: { linkName: { type: 'string' }, linkURL: { type: 'string' } } },
    '@context': { type: 'array', items: { type: ['string', 'object'] } },
    includedProfile: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'string', pattern: '^https?://' },
          name: { type: 'string', minLength: 1 },
          version: { type: 'string' },
          status: { type: 'string' },
          validFrom: { type: 'string' },
          criterion: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name'],
              properties: {
                id: { type: 'string', pattern: '^https?://' },
                name: { type: 'string', minLength: 1 },
                version: { type: 'string' },
                status: { type: 'string' },
                tags: { type: 'array', items: { type: 'string' } },
                conformityTopic: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['id'],
                    properties: { id: { type: 'string' }, name: { type: 'string' }, definition: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;
