#!/usr/bin/env -S node --import tsx
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { readLogSettings } from '../core/logging/log-settings.ts';
import { createLogger } from '../core/logging/logger.ts';
import { connectNodeDeps, type NodeDeps } from '../core/node-deps.ts';
import { readCliSettings } from '../core/settings/cli-settings.ts';
import type { EnvSource } from '../core/settings/env-readers.ts';
import { ConfigError } from '../core/errors.ts';
import { refuseDashValues } from './batch-item-arguments.ts';
import { EXIT, EXIT_CODES_HELP, UsageError, type CliCommand, type CliContext } from './command.ts';
import { auditEncryptionCommand } from './commands/audit-encryption.ts';
import { checkSettings } from './commands/check-settings.ts';
import { inspectItemCommand } from './commands/inspect-item.ts';
import { listUnknownItemsCommand } from './commands/list-unknown-items.ts';
import { listOrphansCommand, removeOrphansCommand } from './commands/orphans.ts';
import { resolveItemCommand } from './commands/resolve-item.ts';
import { rotateDidKeyCommand } from './commands/rotate-did-key.ts';
import { rotateEncryptionKeyCommand } from './commands/rotate-encryption-key.ts';

/** Every operator command, one module each in cli/commands/. */
export const COMMANDS: readonly CliCommand[] = [
  checkSettings,
  listUnknownItemsCommand,
  inspectItemCommand,
  resolveItemCommand,
  rotateEncryptionKeyCommand,
  auditEncryptionCommand,
  rotateDidKeyCommand,
  listOrphansCommand,
  removeOrphansCommand,
];

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: CliIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/** Runs the CLI once and returns its exit code: 0 done, 1 failed, 2 wrong usage. */
export const runCli = async (argv: string[], env: EnvSource, io: CliIo = processIo): Promise<number> => {
  let connection: NodeDeps<ReturnType<typeof readCliSettings>> | undefined;
  const context: CliContext = {
    env,
    print: (line) => io.out(`${line}\n`),
    note: (line) => io.err(`${line}\n`),
    deps: async () => {
      const log = readLogSettings(env);
      const logger = createLogger(log.level, (line) => io.err(`${line}\n`), { base: { 'service.name': 'css-operator' }, redact: log.redact });
      connection ??= connectNodeDeps(env, readCliSettings(env, (m) => logger.warn(m)), { logger, poolMax: 2 });
      return connection.deps;
    },
  };
  let code: number = EXIT.ok;
  const program = new Command('css-operator')
    .description('Operator commands of the Credential Support Service (settings as for the web process and worker)')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .addHelpText('after', EXIT_CODES_HELP);
  for (const definition of COMMANDS) {
    const command = program.command(definition.name).description(definition.summary).exitOverride();
    definition.configure?.(command);
    command.action(async (...received: unknown[]) => {
      const options = received.at(-2) as Record<string, unknown>;
      const valueOptions = command.options.filter((o) => o.required || o.optional).map((o) => o.long ?? '');
      refuseDashValues(argv.slice(argv.indexOf(definition.name) + 1), valueOptions);
      code = await definition.run(context, command.args, options);
    });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof UsageError) {
      io.err(`css-operator: ${error.message}\n`);
      return EXIT.usage;
    }
    const detail = error instanceof ConfigError ? ` [${error.code}]` : '';
    io.err(`css-operator: ${error instanceof Error ? error.message : String(error)}${detail}\n`);
    return EXIT.failed;
  } finally {
    await connection?.close();
  }
};

// Started directly or through the package's `css-operator` bin (a symlink).
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.exit(await runCli(process.argv.slice(2), process.env));
}
