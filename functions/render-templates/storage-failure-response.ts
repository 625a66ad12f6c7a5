import '@hono/zod-openapi';
import * as z from 'zod';
import { jsonResponse } from '../platform/openapi-responses.ts';

/** The 502 of the routes that write template content to the storage service. */
export const storageDown = { 502: jsonResponse(z.object({ error: z.string(), code: z.string() }), 'The storage service failed') };
