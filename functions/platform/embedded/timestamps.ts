import '@hono/zod-openapi';
import * as z from 'zod';

/** Every record's createdAt / updatedAt, as ISO 8601 UTC strings. */
export const timestamps = {
  createdAt: z.string().openapi({ format: 'date-time' }),
  updatedAt: z.string().openapi({ format: 'date-time' }),
};

export const iso = (date: Date) => date.toISOString();
