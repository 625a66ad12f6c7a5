import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { assignCorrelationId } from './correlation-id.ts';
import type { AppEnv, Services } from './env.ts';
import { handleError } from './error-handler.ts';

/** A group app with the platform's correlation id and error handler, whose logger writes into `lines`. */
const appThrowing = (error: Error) => {
  const lines: { level: string; message: string; correlationId?: string; code?: string }[] = [];
  const logger = createLogger('debug', (line) => lines.push(JSON.parse(line)));
  const app = new OpenAPIHono<AppEnv>();
  app.use('*', async (c, next) => {
    assignCorrelationId(c);
    c.set('services', { logger } as Services);
    await next();
  });
  app.get('/x', () => {
    throw error;
  });
  app.onError(handleError);
  return { app, lines };
};

describe('the one error handler', () => {
  it('logs a 502 from an upstream adapter once, at warn, with the correlation id', async () => {
    const { app, lines } = appThrowing(new ApiError(502, 'IDR service unreachable: timeout', 'IDR_UNAVAILABLE'));
    const response = await app.request('/x', { headers: { 'x-correlation-id': 'corr-502' } });
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: 'IDR service unreachable: timeout', code: 'IDR_UNAVAILABLE' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', correlationId: 'corr-502', code: 'IDR_UNAVAILABLE', message: 'Upstream service failed' });
  });

  it('does not log a client error', async () => {
    const { app, lines } = appThrowing(new ApiError(422, 'refused upstream', 'IDR_REJECTED'));
    expect((await app.request('/x')).status).toBe(422);
    expect(lines).toEqual([]);
  });
});
