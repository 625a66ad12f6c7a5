import { describe, expect, it } from 'vitest';
import { interpolate } from './compose-env.ts';

describe("compose's variable interpolation (as the container tests read docker-compose.yml)", () => {
  it('substitutes set variables, defaults (nested) for unset or empty ones, and $$ as $', () => {
    const vars = { PORT: '4000', EMPTY: '', HOST: 'db' };
    expect(interpolate('http://localhost:${PORT:-3003}', vars)).toBe('http://localhost:4000');
    expect(interpolate('${MISSING:-http://vc.localhost:${VC_PORT:-3332}}', vars)).toBe('http://vc.localhost:3332');
    expect(interpolate('${A:-${B:-http://x:${PORT:-1}}}', vars)).toBe('http://x:4000');
    expect(interpolate('${EMPTY:-fallback}|${EMPTY-kept}|${HOST}', vars)).toBe('fallback||db');
    expect(interpolate('$${POSTGRES_USER} costs $5', vars)).toBe('${POSTGRES_USER} costs $5');
  });

  it('refuses a required variable that is unset or empty, with its message', () => {
    expect(() => interpolate('${KEY:?set KEY to 64 hex characters}', { KEY: '' })).toThrow('KEY is required: set KEY to 64 hex characters');
    expect(interpolate('${KEY:?set KEY}', { KEY: 'abc' })).toBe('abc');
  });
});
