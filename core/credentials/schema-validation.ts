import { Validator, type OutputUnit } from '@cfworker/json-schema';
import { payloadRefused } from './payload-errors.ts';
import { DocumentFetchError, type DocumentSource } from './document-source.ts';

/**
 * JSON Schema validation with @cfworker/json-schema: an interpreter (no `new Function` code generation,
 * so it also runs on workerd) that handles the UNTP 0.6.x/0.7.0 and W3C VC schemas (draft 2020-12,
 * local `$ref`/`$defs`). A validator is built once per fetched schema document and kept as long as
 * the document source keeps that document (SCHEMA_CACHE_TTL_MS).
 */
export const createSchemaValidation = (documents: DocumentSource) => {
  const compiled = new WeakMap<object, Validator>();

  const validatorFor = async (url: string): Promise<Validator> => {
    let schema: unknown;
    try {
      schema = await documents.get(url, 'schema');
    } catch (error) {
      if (error instanceof DocumentFetchError) throw payloadRefused('SCHEMA_FETCH_FAILED', '', `schema ${error.message}`);
      throw error;
    }
    const document = schema as object;
    let validator = compiled.get(document);
    if (!validator) {
      try {
        validator = new Validator(schema as Record<string, unknown>, '2020-12', false);
      } catch (error) {
        throw payloadRefused('SCHEMA_FETCH_FAILED', '', `schema ${url} is not a usable JSON Schema (${(error as Error).message})`);
      }
      compiled.set(document, validator);
    }
    return validator;
  };

  /** Every schema of the data model must accept the payload (an extension's parent and its own). */
  return async (payload: unknown, schemaUrls: readonly string[]): Promise<void> => {
    const validators = await Promise.all(schemaUrls.map(validatorFor));
    validators.forEach((validator, i) => {
      const result = validator.validate(payload);
      if (result.valid) return;
      const failure = deepestFailure(result.errors);
      throw payloadRefused('SCHEMA_DOCUMENT_INVALID', instancePointer(failure.instanceLocation), `${failure.error} (schema ${schemaUrls[i]})`);
    });
  };
};

/** `#/credentialSubject/name` (URI-encoded segments) → `/credentialSubject/name`. */
const instancePointer = (location: string): string => decodeURIComponent(location.replace(/^#/, ''));

/** The most specific problem: the failure located deepest in the payload (the first of equals). */
const deepestFailure = (errors: OutputUnit[]): OutputUnit =>
  errors.reduce((best, e) => (e.instanceLocation.split('/').length > best.instanceLocation.split('/').length ? e : best), errors[0]!);

export type SchemaValidation = ReturnType<typeof createSchemaValidation>;
