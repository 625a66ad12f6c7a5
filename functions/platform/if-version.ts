import '@hono/zod-openapi';
import * as z from 'zod';

/** The `If-Version` request header as OpenAPI documents it (handlers read the header itself with `parseIfVersion`). */
export const ifVersionHeader = z.object({
  'If-Version': z.string().optional().openapi({ param: { in: 'header' }, description: 'The version this write was based on (1..2147483647); required', example: '1' }),
});
