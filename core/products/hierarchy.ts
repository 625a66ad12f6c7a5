import type { ProductLevel } from '../../db/schema/index.ts';
import { badRequest } from '../errors.ts';

/**
 * The product hierarchy, three levels deep: a MODEL has no parent, a BATCH has a MODEL parent, an
 * ITEM has a BATCH parent or none. Returns the problem with a (level, parent level) pair, if any.
 */
export const hierarchyProblem = (level: ProductLevel, parentLevel: ProductLevel | null): string | undefined => {
  switch (level) {
    case 'MODEL':
      return parentLevel === null ? undefined : 'a MODEL product must not have a parent';
    case 'BATCH':
      return parentLevel === 'MODEL' ? undefined : 'a BATCH product needs a MODEL parent';
    case 'ITEM':
      return parentLevel === null || parentLevel === 'BATCH' ? undefined : 'an ITEM product may only have a BATCH parent';
  }
};

export const assertHierarchy = (level: ProductLevel, parentLevel: ProductLevel | null, field: string): void => {
  const problem = hierarchyProblem(level, parentLevel);
  if (problem) throw badRequest(`${field}: ${problem}`);
};
