import type { Context } from 'hono';
import { badRequest } from '../../core/errors.ts';
import type { ConsoleEnv } from './console-env.ts';
import { CSRF_FIELD } from './csrf.ts';

/** Text the database cannot store (NUL, lone surrogates) is refused naming the field, as the API does. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A posted form's text fields (files are read by their own handlers), without the CSRF token. */
export const readForm = async (c: Context<ConsoleEnv>): Promise<Record<string, string>> => {
  const body = await c.req.parseBody();
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === CSRF_FIELD || typeof value !== 'string') continue;
    if (UNSTORABLE.test(value)) throw badRequest(`${name}: must not contain NUL or unpaired surrogate characters`);
    fields[name] = value;
  }
  return fields;
};

/** A field's value with surrounding spaces removed, or undefined when empty. */
export const optional = (fields: Record<string, string>, name: string) => {
  const value = fields[name]?.trim();
  return value ? value : undefined;
};

/** Splits an API message `field: problem` (also `[0].field: problem`) into the form field it names and the problem. */
export const fieldOfMessage = (message: string): { field: string; problem: string } | undefined => {
  const match = message.match(/^(?:\[\d+\]\.)?([A-Za-z][\w.]*): (.+)$/s);
  return match ? { field: match[1]!, problem: match[2]! } : undefined;
};
