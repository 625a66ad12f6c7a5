/** Record ids are made where the primary-key columns are declared (`db/ids.ts`); domain code imports them from here. */
export { createId } from '../db/ids.ts';
