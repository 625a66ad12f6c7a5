import { findOrphans, removeOrphan, type Orphan } from '../../core/batches/orphans.ts';
import { integerArgument, optionalTextArgument } from '../batch-item-arguments.ts';
import { EXIT, EXIT_CODES_HELP, type CliCommand, type CliContext } from '../command.ts';
import { auditOperatorAction } from '../operator-audit.ts';

const DEFAULT_OLDER_THAN = '60';

const describe = (o: Orphan) =>
  `kind=${o.kind} ref=${o.ref} correlationId=${o.correlationId} at=${o.at} instance=${o.instanceId}${o.heldBy ? ` heldBy=${o.heldBy}` : ''}`;

const olderThanOption = (command: import('commander').Command) =>
  command.option('--older-than <minutes>', `only what was made this many minutes ago or earlier (default ${DEFAULT_OLDER_THAN}: an attempt in flight owns its copies until it records them)`);

const sweep = async (context: CliContext, options: Record<string, unknown>, command: 'list-orphans' | 'remove-orphans', extra: Record<string, unknown> = {}) => {
  const olderThanMinutes = integerArgument('older-than', options.olderThan ?? DEFAULT_OLDER_THAN, 0);
  const reason = optionalTextArgument('reason', options.reason)?.trim() || 'orphan review';
  const { db, logger, secretBox, fetcher } = await context.deps();
  auditOperatorAction(logger, context.env, command, { olderThanMinutes, reason, ...extra });
  const deps = { db, box: secretBox, fetcher };
  const found = await findOrphans(deps, { olderThanMinutes });
  for (const line of found.unanswered) context.note(`unanswered: ${line}`);
  return { deps, found };
};

const summary = (orphans: Orphan[]) => {
  const copies = orphans.filter((o) => o.kind === 'stored-copy').length;
  return `${orphans.length} orphan(s): ${copies} stored copies, ${orphans.length - copies} status entries, ${orphans.filter((o) => o.heldBy).length} held by an open item`;
};

const HELP = `
An orphan is a stored copy or a status entry that the VC or storage service made under a correlation id
(our services record them; VCkit and the upstream storage service do not) and that no credential record
owns. One held by a batch item whose outcome is still open (QUEUED, PROCESSING, OUTCOME_UNKNOWN) is listed
with heldBy= and never removed: settle the item first (resolve-item, or --issued-from-stored to adopt it).
An instance that cannot be read is named on stderr (unanswered:) and the command exits 1.`;

/** Lists the stored copies and status entries no record owns, one line each. */
export const listOrphansCommand: CliCommand = {
  name: 'list-orphans',
  summary: 'List stored copies and status entries that no credential record owns',
  configure: (command) =>
    olderThanOption(command)
      .option('--reason <ticket>', 'why the listing is made, for the audit line (default "orphan review")')
      .addHelpText('after', `${HELP}\n${EXIT_CODES_HELP}`),
  run: async (context, _args, options) => {
    const { found } = await sweep(context, options, 'list-orphans');
    for (const orphan of found.orphans) context.print(`orphan: ${describe(orphan)}`);
    context.note(summary(found.orphans));
    return found.unanswered.length ? EXIT.failed : EXIT.ok;
  },
};

/**
 * Removes the orphans no open item holds: stored copies are deleted, status entries retired (their
 * bit set, so a signed copy carrying one reads revoked or suspended). --dry-run only says what it would do.
 */
export const removeOrphansCommand: CliCommand = {
  name: 'remove-orphans',
  summary: 'Remove stored copies and retire status entries that no credential record owns (--dry-run first)',
  configure: (command) =>
    olderThanOption(command)
      .option('--reason <ticket>', 'the ticket justifying the removal, for the audit line (default "orphan review")')
      .option('--dry-run', 'print what would be removed and remove nothing')
      .addHelpText(
        'after',
        `${HELP}
Prints "removed:", "would remove:" (--dry-run), "held:" or "failed:" per orphan. A stored copy is deleted;
a status entry is retired by setting its bit (an index cannot be given back).
${EXIT_CODES_HELP}`,
      ),
  run: async (context, _args, options) => {
    const dryRun = options.dryRun === true;
    const { deps, found } = await sweep(context, options, 'remove-orphans', { dryRun });
    let failed = found.unanswered.length > 0;
    for (const orphan of found.orphans) {
      if (orphan.heldBy) context.print(`held: ${describe(orphan)}`);
      else if (dryRun) context.print(`would remove: ${describe(orphan)}`);
      else {
        try {
          await removeOrphan(deps, orphan);
          context.print(`removed: ${describe(orphan)}`);
        } catch (error) {
          failed = true;
          context.print(`failed: ${describe(orphan)}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
    context.note(summary(found.orphans));
    if (dryRun) context.note('Dry run: nothing was removed.');
    return failed ? EXIT.failed : EXIT.ok;
  },
};
