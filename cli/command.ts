import type { Command } from 'commander';
import type { Deps } from '../core/deps.ts';
import type { EnvSource } from '../core/settings/env-readers.ts';

/** What a command runs with: the environment, where to print, and the core deps (connected on first use). */
export interface CliContext {
  env: EnvSource;
  print(line: string): void;
  /** A line on stderr beside the log lines: progress and summaries, never the command's answer. */
  note(line: string): void;
  deps(): Promise<Deps>;
}

/**
 * One operator command (`cli/commands/<name>.ts`), registered in the COMMANDS list of cli/main.ts.
 * `run` returns the exit code; a thrown error prints one line and exits 1, a thrown UsageError exits 2.
 */
export interface CliCommand {
  name: string;
  summary: string;
  /** Arguments and options, declared with commander (`command.argument(…)`, `command.option(…)`). */
  configure?(command: Command): void;
  run(context: CliContext, args: string[], options: Record<string, unknown>): Promise<number>;
}

/** 0 done, 1 failed (an error), 2 wrong usage, 3 refused (the command printed an outcome word). */
export const EXIT = { ok: 0, failed: 1, usage: 2, refused: 3 } as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0  done
  1  failed: a setting, the database or the work itself (one line on stderr)
  2  wrong usage: a missing, blank or malformed argument
  3  refused: the outcome word printed on stdout says why (missing, not-settled, …)`;

/** An argument that breaks a rule of the command: printed as one line, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
