import { badRequest } from '../../core/errors.ts';

/** PATCH needs at least one recognised field; unknown keys were already dropped by validation. */
export const requireRecognisedField = <T extends Record<string, unknown>>(body: T, recognised: string[]): T => {
  const present = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as T;
  if (Object.keys(present).length === 0) {
    throw badRequest(`body: at least one of ${recognised.join(', ')} is required`);
  }
  return present;
};
