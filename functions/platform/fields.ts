import '@hono/zod-openapi';
import * as z from 'zod';
import { TEXT_LIMITS, tooLongMessage, type TextKind } from '../../core/text-limits.ts';

/** Messages for the field rules shared by every resource; one place for each. */
export const typeError = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === null ? 'must not be null' : issue.input === undefined ? 'is required' : `must be ${expected}`;

export { TEXT_LIMITS, type TextKind };

export const text = (kind: TextKind = 'name') =>
  z.string({ error: typeError('a string') }).max(TEXT_LIMITS[kind], tooLongMessage(TEXT_LIMITS[kind]));

/** Required text with at least one non-whitespace character. */
export const nonBlankText = (kind: TextKind = 'name') =>
  text(kind).refine((v) => v.trim().length > 0, 'must contain a non-whitespace character');

/** Text with no leading or trailing whitespace (stored exactly as submitted). */
export const unpaddedText = (kind: TextKind = 'name') =>
  nonBlankText(kind).refine((v) => v === v.trim(), 'must not have leading or trailing whitespace');

export const idText = () => text('id').min(1, 'must not be empty');

/** An AES-256-GCM key as 64 hexadecimal characters (the key of an encrypted credential); checked here, never stored. */
export const aesKeyHex = () =>
  z
    .string({ error: typeError('a string') })
    .max(64, 'must be 64 hexadecimal characters')
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters');

export const bool = () => z.boolean({ error: typeError('a boolean') });

/** Any JSON object (not an array, not a scalar); its shape is not validated. */
export const jsonObject = () =>
  z.custom<Record<string, unknown>>(
    (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
    { error: (issue) => (issue.input === null ? 'must not be null' : issue.input === undefined ? 'is required' : 'must be a JSON object') },
  ).openapi({ type: 'object', additionalProperties: true });

/** An array of record ids (each non-empty); duplicates are a domain rule checked with the other references. */
export const idArray = () => z.array(idText(), { error: typeError('an array of ids') });
