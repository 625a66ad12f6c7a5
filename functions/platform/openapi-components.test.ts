import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';

/** The OpenAPI document of the whole API (what /api-docs/openapi.json serves), built without a server. */
const openApiDocument = async () => {
  const app = buildApp(async (_c, next) => next());
  const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'test', version: '0' } });
  return doc as unknown as { components: { schemas: Record<string, unknown> } };
};

/** A schema's structure without its documentation (examples and descriptions differ between copies). */
const structureOf = (schema: unknown): string =>
  JSON.stringify(schema, (key, value) => (key === 'example' || key === 'examples' || key === 'description' ? undefined : value));

describe('OpenAPI components', () => {
  it('register each response shape once: no two component names describe the same schema', async () => {
    const { schemas } = (await openApiDocument()).components;
    const namesByShape = new Map<string, string[]>();
    for (const [name, schema] of Object.entries(schemas)) {
      const shape = structureOf(schema);
      namesByShape.set(shape, [...(namesByShape.get(shape) ?? []), name]);
    }
    expect([...namesByShape.values()].filter((names) => names.length > 1)).toEqual([]);
  });

  it('the shared embedded shapes are components under one name each', async () => {
    const { schemas } = (await openApiDocument()).components;
    for (const name of ['Registrar', 'Qualifier', 'IdentifierScheme', 'IdentifierSchemeWithRegistrar', 'IdentifierWithScheme', 'EmbeddedOrganisation', 'EmbeddedFacility', 'RenderTemplate']) {
      expect(schemas, name).toHaveProperty(name);
    }
    expect(Object.keys(schemas)).not.toContain('RegistrarScheme');
  });
});
