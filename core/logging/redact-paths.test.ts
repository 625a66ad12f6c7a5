import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.ts';
import { readLogSettings } from './log-settings.ts';
import { createLogger } from './logger.ts';
import { parseRedactPaths, redactPaths } from './redact-paths.ts';

describe('LOG_REDACT_PATHS', () => {
  it('parses comma-separated dot paths of field names or *', () => {
    expect(parseRedactPaths(undefined)).toEqual({ paths: [] });
    expect(parseRedactPaths('  ')).toEqual({ paths: [] });
    expect(parseRedactPaths('request.email, items.*.reference')).toEqual({ paths: [['request', 'email'], ['items', '*', 'reference']] });
  });

  it.each(['a..b', 'a,', '.a', 'a.b c', 'a[0]', '1a'])('refuses %j, naming the path', (raw) => {
    const parsed = parseRedactPaths(raw);
    expect(parsed).toHaveProperty('invalid');
    expect(() => readLogSettings({ LOG_REDACT_PATHS: raw })).toThrow(ConfigError);
  });

  it('replaces exactly the named fields, through arrays and wildcards', () => {
    const value = { request: { email: 'a@example.com', name: 'A' }, items: [{ reference: 'r1', index: 0 }], other: 'kept' };
    expect(redactPaths(value, [['request', 'email'], ['items', '*', 'reference']])).toEqual({
      request: { email: '[Redacted]', name: 'A' },
      items: [{ reference: '[Redacted]', index: 0 }],
      other: 'kept',
    });
    expect(value.request.email).toBe('a@example.com');
  });

  it('the logger applies them to every line, after the built-in secret masking', () => {
    const lines: string[] = [];
    const { redact } = readLogSettings({ LOG_REDACT_PATHS: 'tenant.name' });
    const logger = createLogger('info', (l) => lines.push(l), { redact, base: { 'service.name': 'w' } });
    logger.info('hello', { tenant: { name: 'Acme', id: 't1' }, apiKey: 'k' });
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: 'hello', 'service.name': 'w', tenant: { name: '[Redacted]', id: 't1' }, apiKey: '***' });
  });
});
