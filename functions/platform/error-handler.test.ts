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
  it('takes the correlation id by the platform\'s rule when an error came before the platform took it', async () => {
    const app = new OpenAPIHono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('services', { logger: createLogger('error', () => {}) } as Services);
      await next();
    });
    app.get('/early', () => {
      throw new ApiError(400, 'refused early', 'VALIDATION_FAILED');
    });
    app.get('/boom', () => {
      throw new Error('internal detail');
    });
    app.onError(handleError);
    const echoed = await app.request('/early', { headers: { 'x-correlation-id': 'early-1' } });
    expect([echoed.status, echoed.headers.get('x-correlation-id')]).toEqual([400, 'early-1']);
    const made = await app.request('/boom');
    const quoted = ((await made.json()) as { error: string }).error.match(/correlation id "(.+)"/)?.[1];
    expect(quoted).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.headers.get('x-correlation-id')).toBe(quoted);
  });

  it('adds no header of its own where the runtime writes it (the Node server), and quotes the runtime\'s id', async () => {
    const { app } = appThrowing(new Error('internal detail'));
    const response = await app.request('/x', {}, { correlationId: 'runtime-1' });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-correlation-id')).toBeNull();
    expect(((await response.json()) as { error: string }).error).toContain('"runtime-1"');
  });

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
