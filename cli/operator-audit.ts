import { userInfo } from 'node:os';
import type { Logger } from '../core/logging/logger.ts';

/** Who ran the command: the OS account (behind sudo, the invoking account). */
const operatorName = (env: Record<string, string | undefined>): string => {
  if (env.SUDO_USER) return env.SUDO_USER;
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? 'unknown';
  }
};

/**
 * The audit line of an operator command (batch recovery, key rotation and audit), at warn so that it is written at every log level
 * but error. Who, which item, why, and what came of it; never an item's request.
 */
export const auditOperatorAction = (
  logger: Logger,
  env: Record<string, string | undefined>,
  command: 'inspect-item' | 'resolve-item' | 'list-unknown-items' | 'rotate-encryption-key' | 'audit-encryption' | 'rotate-did-key' | 'list-orphans' | 'remove-orphans',
  fields: Record<string, unknown>,
): void => logger.warn(`Operator ${command}`, { audit: true, operator: operatorName(env), command, ...fields });
