import { z } from '@hono/zod-openapi';

/** Every record's createdAt / updatedAt, as ISO 8601 UTC strings. */
export const timestamps = {
  createdAt: z.string().openapi({ format: 'date-time' }),
  updatedAt: z.string().openapi({ format: 'date-time' }),
};

export const iso = (date: Date) => date.toISOString();
