import { discloseItemRequest, inspectItem } from '../../core/batches/item-inspection.ts';
import { traceCorrelation } from '../../core/batches/item-trace.ts';
import { parseLogLevel } from '../../core/logging/logger.ts';
import { batchItemTarget, optionalTextArgument } from '../batch-item-arguments.ts';
import { itemReport, traceReport } from '../batch-item-report.ts';
import { EXIT, EXIT_CODES_HELP, type CliCommand } from '../command.ts';
import { auditOperatorAction } from '../operator-audit.ts';

const DEFAULT_REASON = 'item inspection';

/**
 * Shows one item of a tenant's batch: states, the batch version resolve-item is fenced on,
 * timestamps, error, credential id, reference, digest and correlation ids. For an OUTCOME_UNKNOWN
 * item, also what the tenant's VC and storage services recorded under the item's correlation id
 * (signed? stored? where?). With --disclose-request, also the decrypted item request, after the
 * access audit line (refused at LOG_LEVEL=error).
 */
export const inspectItemCommand: CliCommand = {
  name: 'inspect-item',
  summary: 'Show one item of a batch and the batch version to resolve it against',
  configure: (command) =>
    command
      .requiredOption('--tenant <id>', 'tenant that owns the batch')
      .requiredOption('--batch <id>', 'batch id')
      .requiredOption('--index <n>', 'zero-based item index (write --index=<n> for a value starting with a minus sign)')
      .option('--reason <ticket>', `why the item is inspected, for the audit line (default "${DEFAULT_REASON}")`)
      .option('--disclose-request', 'also print the decrypted item request, after the access audit line')
      .option('--no-trace', 'do not ask the VC and storage services what they did for an unknown item')
      .addHelpText(
        'after',
        `
For an OUTCOME_UNKNOWN item, asks the VC and storage instances the tenant can use what they did under
the item's correlation id: signed: yes|no|unknown (signature and statusEntry lines), stored: yes|no|unknown
(storedObject lines: where, and whether it still exists); unknown when an instance could not answer
(traceUnanswered lines say which and why). --no-trace skips it.
Writes an audit line at warn level (stderr). --disclose-request is refused when LOG_LEVEL is error.
Outcome words (exit 3): missing (no such batch of this tenant), item-missing (no item at that index).
${EXIT_CODES_HELP}`,
      ),
  run: async (context, _args, options) => {
    const target = batchItemTarget(options);
    const reason = optionalTextArgument('reason', options.reason)?.trim() || DEFAULT_REASON;
    const disclose = options.discloseRequest === true;
    if (disclose && parseLogLevel(context.env.LOG_LEVEL) === 'error') {
      throw new Error('--disclose-request is refused when LOG_LEVEL is error: the access audit line would not be written');
    }
    const { db, logger, secretBox, fetcher } = await context.deps();
    auditOperatorAction(logger, context.env, 'inspect-item', { ...target, reason, discloseRequest: disclose });
    const found = await inspectItem(db, target.tenantId, target.batchId, target.index);
    if (found.outcome !== 'found') {
      context.print(`outcome: ${found.outcome}`);
      return EXIT.refused;
    }
    for (const line of itemReport(found.batch, found.item)) context.print(line);
    if (found.item.state === 'OUTCOME_UNKNOWN' && options.trace !== false) {
      const trace = await traceCorrelation({ db, box: secretBox, fetcher }, target.tenantId, found.item.correlationId);
      for (const line of traceReport(trace)) context.print(line);
    }
    if (disclose) context.print(`request: ${await discloseItemRequest(secretBox, found.item)}`);
    return EXIT.ok;
  },
};
