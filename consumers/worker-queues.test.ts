import { describe, expect, it } from 'vitest';
import { createLogger } from '../core/logging/logger.ts';
import { logQueueError } from './worker-queues.ts';

const captured = () => {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger('debug', (line) => lines.push(JSON.parse(line))) };
};

describe("the worker's queue error lines", () => {
  it('carry the message and code of whatever pg-boss emits, never [object Object]', () => {
    const { lines, logger } = captured();
    logQueueError(logger, false, { message: 'Connection terminated unexpectedly', code: 'ECONNRESET' });
    logQueueError(logger, false, { message: 'terminating connection due to administrator command', code: '57P01' });
    logQueueError(logger, true, new Error('Connection terminated'));
    expect(lines.map(({ level, message, error, code }) => ({ level, message, error, code }))).toEqual([
      { level: 'error', message: 'Queue error', error: 'Connection terminated unexpectedly', code: 'ECONNRESET' },
      { level: 'warn', message: 'Queue connection closed by the database (shutdown or restart)', error: 'terminating connection due to administrator command', code: '57P01' },
      { level: 'info', message: 'Queue connection closed while stopping', error: 'Connection terminated', code: undefined },
    ]);
    expect(JSON.stringify(lines)).not.toContain('[object Object]');
  });
});
