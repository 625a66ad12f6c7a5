import { badRequest } from '../errors.ts';

/** 400 BATCH_TOO_LARGE: a submission with more items than MAX_BATCH_ITEMS (checked before any item is validated). */
export const batchTooLarge = (maxItems: number, count: number) =>
  badRequest(`items: a batch holds at most ${maxItems} items (MAX_BATCH_ITEMS); got ${count}`, 'BATCH_TOO_LARGE');
