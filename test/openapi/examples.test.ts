import { Validator, type Schema } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { buildApiDocument, operationsOf, type ApiDocument, type MediaType } from './api-document.ts';

/** Operations that issue, verify, submit or change status: each documents one whole request and its answer. */
const WITH_EXAMPLES = [
  'issueCredential',
  'verifyCredentialGet',
  'verifyCredentialPost',
  'submitBatch',
  'cancelBatch',
  'setCredentialStatus',
  'reconcileCredentialStatus',
  'registerExternal',
  'reverifyRecord',
  'publishLinks',
  'createDid',
  'importDid',
  'verifyDid',
];

const doc = buildApiDocument();
const operations = operationsOf(doc);

/** A validator of `schema` inside this document: its `#/components/schemas/…` references resolve. */
const validatorOf = (document: ApiDocument, schema: unknown) => {
  const local = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/')) as Record<string, unknown>;
  const defs = JSON.parse(JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/')) as Record<string, unknown>;
  return new Validator({ ...local, $defs: defs } as Schema, '2020-12', false);
};

/** Every example of an operation with the schema it must meet, named for the report. */
const examplesOf = (operation: (typeof operations)[number]) => {
  const { operationId, requestBody, responses, parameters = [] } = operation.operation;
  const media = (where: string, content: Record<string, MediaType> | undefined) =>
    Object.entries(content ?? {}).flatMap(([type, m]) => [
      ...(m.example === undefined ? [] : [{ at: `${operationId} ${where} ${type}`, schema: m.schema, value: m.example }]),
      ...Object.entries(m.examples ?? {}).map(([name, e]) => ({ at: `${operationId} ${where} ${type} ${name}`, schema: m.schema, value: e.value })),
    ]);
  const params = parameters.flatMap((p) => {
    const value = p.example ?? (p.schema as { example?: unknown } | undefined)?.example;
    return value === undefined ? [] : [{ at: `${operationId} ${p.in} ${p.name}`, schema: p.schema, value }];
  });
  return [
    ...params,
    ...media('request', requestBody?.content),
    ...Object.entries(responses).flatMap(([status, r]) => media(`${status}`, r.content)),
  ];
};

describe('OpenAPI examples', () => {
  it('each operation that issues, verifies, submits or changes status has a whole request and success response example', () => {
    const byId = new Map(operations.map((o) => [o.operation.operationId, o.operation]));
    const missing = WITH_EXAMPLES.flatMap((id) => {
      const operation = byId.get(id);
      if (!operation) return [`${id}: no such operation`];
      const gaps: string[] = [];
      const body = operation.requestBody?.content?.['application/json'];
      if (body && body.example === undefined) gaps.push(`${id}: request body`);
      for (const p of operation.parameters ?? []) {
        const needed = p.in === 'path' || p.in === 'header' || p.required;
        if (needed && p.example === undefined && (p.schema as { example?: unknown })?.example === undefined) gaps.push(`${id}: ${p.in} ${p.name}`);
      }
      const success = Object.entries(operation.responses).filter(([status, r]) => status.startsWith('2') && r.content);
      if (success.length === 0 || success.some(([, r]) => r.content?.['application/json']?.example === undefined)) gaps.push(`${id}: success response`);
      return gaps;
    });
    expect(missing).toEqual([]);
  });

  it('every example in the document meets the schema it illustrates', () => {
    const examples = operations.flatMap(examplesOf);
    expect(examples.length).toBeGreaterThanOrEqual(WITH_EXAMPLES.length * 2);
    const invalid = examples.flatMap(({ at, schema, value }) => {
      const result = validatorOf(doc, schema).validate(value);
      return result.valid ? [] : [`${at}: ${result.errors.filter((e) => !e.error.startsWith('Property')).map((e) => `${e.instanceLocation} ${e.error}`).slice(0, 3).join('; ')}`];
    });
    expect(invalid).toEqual([]);
  });

  it('the validator refuses an example that breaks its schema (this check can fail)', () => {
    const issue = operations.find((o) => o.operation.operationId === 'issueCredential')!.operation;
    const schema = issue.responses['201']!.content!['application/json']!.schema;
    expect(validatorOf(doc, schema).validate({ credentialId: 42 }).valid).toBe(false);
    expect(validatorOf(doc, schema).validate({ warnings: [] }).valid).toBe(false);
  });
});
