import { describe, expect, it } from 'vitest';
import { notFoundAt } from './errors.ts';

describe('notFoundAt', () => {
  it('is a 404 whose message names the request field first, with a stable code', () => {
    expect(notFoundAt('[0].organisationId', 'organisation')).toMatchObject({ status: 404, message: '[0].organisationId: organisation not found', code: 'NOT_FOUND' });
    expect(notFoundAt('idrServiceInstanceId', 'service instance', 'SERVICE_INSTANCE_NOT_FOUND').code).toBe('SERVICE_INSTANCE_NOT_FOUND');
  });
});
