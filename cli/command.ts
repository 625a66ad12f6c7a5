import type { Command } from 'commander';
import type { Deps } from '../core/deps.ts';
import type { EnvSource } from '../core/settings/env-readers.ts';

/** What a command runs with: the environment, where to print, and the core deps (connected on first use). */
export interface CliContext {
  env: EnvSource;
  print(line: string): void;
  deps(): Promise<Deps>;
}

/**
 * One operator command (`cli/commands/<name>.ts`), registered in the COMMANDS list of cli/main.ts.
 * `run` returns the exit code (0 done, 1 failed); a thrown error prints one line and exits 1.
 */
export interface CliCommand {
  name: string;
  summary: string;
  /** Arguments and options, declared with commander (`command.argument(…)`, `command.option(…)`). */
  configure?(command: Command): void;
  run(context: CliContext, args: string[], options: Record<string, unknown>): Promise<number>;
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
