import '@hono/zod-openapi';
import * as z from 'zod';

/** An optional single-valued enum filter: any other value is a 400 naming the parameter and the choices. */
export const enumFilter = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .enum(values, { error: () => `must be one of ${values.join(', ')}` })
    .optional()
    .openapi({ description: `One of ${values.join(', ')}` });

/** An optional `true`/`false` filter, parsed to a boolean. */
export const booleanFilter = () =>
  z
    .enum(['true', 'false'], { error: () => 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true'))
    .openapi({ type: 'string', enum: ['true', 'false'] });
