import { ConfigError } from '../core/errors.ts';

/**
 * The worker's boot failure as the spec prints it: `Worker boot failed: <message> [<code>]`, then one
 * line per cause (`  caused by: …`), innermost last.
 */
export const bootFailureLines = (error: unknown): string[] => {
  const code = error instanceof ConfigError ? error.code : ((error as { code?: unknown })?.code as string | undefined) ?? 'BOOT_FAILED';
  // One line: a driver's message may span several (a failed query and its parameters).
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
  const lines = [`Worker boot failed: ${message} [${code}]`];
  const seen = new Set<unknown>([error]);
  for (let cause = (error as Error)?.cause; cause !== undefined && !seen.has(cause); cause = (cause as Error)?.cause) {
    seen.add(cause);
    lines.push(`  caused by: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`);
  }
  return lines;
};
