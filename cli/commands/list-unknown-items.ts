import { countBatchesNeedingAttention, pagesNeedingAttention } from '../../core/batches/attention-listing.ts';
import { optionalTextArgument, textArgument } from '../batch-item-arguments.ts';
import { EXIT, EXIT_CODES_HELP, type CliCommand } from '../command.ts';
import { auditOperatorAction } from '../operator-audit.ts';

/**
 * Where an operator starts: every item whose outcome is unknown, in the batches that need attention,
 * with the batch version to resolve against. Reports its progress on stderr, a page of batches at a time.
 */
export const listUnknownItemsCommand: CliCommand = {
  name: 'list-unknown-items',
  summary: 'List the items whose outcome is unknown, in every batch that needs attention (of one tenant, or all)',
  configure: (command) =>
    command
      .option('--tenant <id>', 'only the batches of this tenant')
      .option('--reason <ticket>', 'why the listing is made, for the audit line (default "attention review")')
      .addHelpText(
        'after',
        `
Prints one line per item (tenant, batch, version, index, reference, itemCorrelationId) on stdout and
"progress: <done>/<total> batches" on stderr after each page. Writes an audit line at warn level.
${EXIT_CODES_HELP}`,
      ),
  run: async (context, _args, options) => {
    const tenantId = options.tenant === undefined ? undefined : textArgument('tenant', options.tenant);
    const reason = optionalTextArgument('reason', options.reason)?.trim() || 'attention review';
    const { db, logger } = await context.deps();
    auditOperatorAction(logger, context.env, 'list-unknown-items', { tenantId: tenantId ?? null, reason });
    const total = await countBatchesNeedingAttention(db, tenantId);
    let done = 0;
    let items = 0;
    for await (const page of pagesNeedingAttention(db, tenantId)) {
      const versions = new Map(page.batches.map((b) => [b.id, b]));
      for (const item of page.items) {
        const batch = versions.get(item.batchId)!;
        context.print(
          `tenant=${batch.tenantId} batch=${batch.id} version=${batch.version} index=${item.index} reference=${item.reference ?? '-'} itemCorrelationId=${item.correlationId}`,
        );
      }
      done += page.batches.length;
      items += page.items.length;
      context.note(`progress: ${done}/${Math.max(total, done)} batches`);
    }
    context.note(`${items} unknown item(s) in ${done} batch(es) needing attention`);
    return EXIT.ok;
  },
};
