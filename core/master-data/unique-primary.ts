import { violatedConstraint, isUniqueViolation } from '../db-errors.ts';
import { primaryInUse } from './identifier-refs.ts';

/**
 * A concurrent request that claimed the same primary identifier between our check and our write is
 * caught by the unique constraint; it gets the same 409 the check gives.
 */
export const translatePrimaryRace = (error: unknown, kind: string, field = 'primaryIdentifierId'): unknown => {
  if (isUniqueViolation(error) && (violatedConstraint(error) ?? '').includes('primary_identifier')) {
    return primaryInUse(field, kind);
  }
  return error;
};
