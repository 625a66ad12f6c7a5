import { describe, expect, it } from 'vitest';
import { errorFields } from './error-fields.ts';

describe('errorFields: a thrown value as log fields', () => {
  it('never prints [object Object]: a plain object gives its message and code', () => {
    expect(errorFields({ message: 'terminating connection due to administrator command', code: '57P01' })).toEqual({
      error: 'terminating connection due to administrator command',
      code: '57P01',
    });
    expect(errorFields({ severity: 'FATAL' })).toEqual({ error: '{"severity":"FATAL"}' });
    expect(errorFields({})).toEqual({ error: 'an error without a message' });
    expect(JSON.stringify(errorFields({ toString: undefined }))).not.toContain('[object Object]');
  });

  it('an Error with a code, a cause, an AggregateError of refused connections', () => {
    expect(errorFields(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toEqual({
      error: 'connect ECONNREFUSED 127.0.0.1:5432',
      code: 'ECONNREFUSED',
    });
    expect(errorFields(new Error('query failed', { cause: new Error('socket closed') })).error).toBe('query failed (cause: socket closed)');
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    expect(errorFields(new AggregateError([refused('::1:5432'), refused('127.0.0.1:5432')]))).toEqual({
      error: 'several errors: connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432',
      code: 'ECONNREFUSED',
    });
  });

  it('strings and other values as they are; long messages clipped', () => {
    expect(errorFields('plain')).toEqual({ error: 'plain' });
    expect(errorFields(undefined)).toEqual({ error: 'undefined' });
    expect(errorFields(new Error('x'.repeat(2000))).error).toHaveLength(501);
  });
});
