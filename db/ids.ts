import { createId as cuid } from '@paralleldrive/cuid2';

/** Opaque record id (cuid2). Clients must never parse it. */
export const createId = (): string => cuid();
