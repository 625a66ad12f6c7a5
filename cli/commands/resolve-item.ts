import { resolveItem, type ItemFinding, type ResolutionResult } from '../../core/batches/item-resolution.ts';
import { adoptStoredCopy, type AdoptionResult } from '../../core/batches/stored-copy-adoption.ts';
import { readIssuanceSettings } from '../../core/settings/issuance-settings.ts';
import { readBatchRetentionDays } from '../../core/settings/worker-settings.ts';
import { batchItemTarget, integerArgument, optionalTextArgument, textArgument } from '../batch-item-arguments.ts';
import { stateLine } from '../batch-item-report.ts';
import { EXIT, EXIT_CODES_HELP, UsageError, type CliCommand } from '../command.ts';
import { auditOperatorAction } from '../operator-audit.ts';

/** What each refusal means, printed under the outcome word. */
const EXPLAIN: Record<Exclude<ResolutionResult['outcome'], 'resolved' | 'dry-run'>, string> = {
  'reason-missing': 'Give --reason with the ticket that justifies the resolution.',
  'evidence-missing': 'Resolving as failed needs --evidence with a reference to the proof that nothing was issued.',
  missing: 'The tenant has no batch with this id.',
  'not-settled': 'The batch is not NEEDS_ATTENTION: only a settled batch with unknown outcomes can be resolved.',
  'version-mismatch': 'The batch changed since it was inspected; inspect it again and use the version it prints.',
  'item-missing': 'The batch has no item at this index.',
  'not-unknown': 'The item is no longer OUTCOME_UNKNOWN.',
  'credential-not-found': 'The tenant has no credential with this id.',
  'credential-recorded': 'Another batch item (or credential) already records this credential.',
  'no-stored-copy': 'No storage instance of the tenant holds a copy stored under the item\'s correlation id (see inspect-item).',
  'several-stored-copies': 'More than one copy was stored under the item\'s correlation id; resolve with --issued after choosing.',
  'stored-copy-encrypted': 'The stored copy is encrypted and its key went only to the lost attempt; it cannot be adopted.',
  'stored-copy-unreadable': 'The stored copy could not be read as an enveloped credential.',
  'stored-copy-mismatch': 'The stored copy is not this item\'s credential (another issuer, or a payload other than the item\'s request).',
};

/** --issued ID, --issued-from-stored or --failed --evidence REF: exactly one finding. */
const findingOf = (options: Record<string, unknown>): ItemFinding | 'adopt' => {
  const issued = options.issued !== undefined;
  const failed = options.failed === true;
  const adopt = options.issuedFromStored === true;
  if ([issued, failed, adopt].filter(Boolean).length !== 1) {
    throw new UsageError('give exactly one of --issued <credentialId>, --issued-from-stored and --failed --evidence <ref>');
  }
  if (adopt) {
    if (options.evidence !== undefined) throw new UsageError('--evidence: goes with --failed, not --issued-from-stored');
    return 'adopt';
  }
  if (issued) {
    if (options.evidence !== undefined) throw new UsageError('--evidence: goes with --failed, not --issued');
    return { as: 'issued', credentialId: textArgument('issued', options.issued) };
  }
  return { as: 'failed', evidence: optionalTextArgument('evidence', options.evidence) };
};

/**
 * Resolves an OUTCOME_UNKNOWN item of a NEEDS_ATTENTION batch as issued or failed, fenced on the
 * batch version inspect-item printed. Never queues issuance. --dry-run shows the change and rolls it back.
 */
export const resolveItemCommand: CliCommand = {
  name: 'resolve-item',
  summary: 'Resolve an item whose outcome is unknown as issued or failed (fenced on the batch version)',
  configure: (command) =>
    command
      .requiredOption('--tenant <id>', 'tenant that owns the batch')
      .requiredOption('--batch <id>', 'batch id')
      .requiredOption('--index <n>', 'zero-based item index (write --index=<n> for a value starting with a minus sign)')
      .requiredOption('--version <n>', 'batch version printed by inspect-item')
      .option('--issued <credentialId>', "resolve as issued: the tenant's credential that was issued")
      .option('--issued-from-stored', "resolve as issued, recording the credential from the copy stored under the item's correlation id (checked: the item's issuer and payload)")
      .option('--failed', 'resolve as failed (needs --evidence)')
      .option('--evidence <ref>', 'reference to the proof that nothing was issued (with --failed)')
      .option('--reason <ticket>', 'the ticket justifying the resolution, kept as resolutionReason (required)')
      .option('--dry-run', 'show the change and roll it back')
      .addHelpText(
        'after',
        `
Writes an audit line at warn level (stderr). Prints the state before and after.
Outcome words (exit 3): ${Object.keys(EXPLAIN).join(', ')}.
${EXIT_CODES_HELP}`,
      ),
  run: async (context, _args, options) => {
    const target = batchItemTarget(options);
    const version = integerArgument('version', options.version, 1);
    const finding = findingOf(options);
    const reason = optionalTextArgument('reason', options.reason);
    const dryRun = options.dryRun === true;
    const retentionDays = readBatchRetentionDays(context.env);
    const { db, logger, secretBox, fetcher } = await context.deps();
    const audit = (outcome: string, extra: Record<string, unknown> = {}) =>
      auditOperatorAction(logger, context.env, 'resolve-item', { ...target, version, reason: reason ?? null, finding: finding === 'adopt' ? { as: 'issued-from-stored' } : finding, dryRun, outcome, ...extra });
    let result: AdoptionResult;
    try {
      const common = { ...target, version, reason, dryRun, retentionDays };
      result =
        finding === 'adopt'
          ? await adoptStoredCopy({ db, box: secretBox, fetcher }, { ...common, issuance: readIssuanceSettings(context.env, (m) => logger.warn(m)) })
          : await resolveItem(db, { ...common, finding });
    } catch (error) {
      // The transaction rolled back: nothing changed, but the attempt is still on record.
      audit('failed', { error: String(error) });
      throw error;
    }
    audit(result.outcome, result.copy ? { storedCopy: result.copy.uri } : {});
    context.print(`outcome: ${result.outcome}`);
    if (result.copy) context.print(`storedCopy: ${result.copy.uri}${result.copy.payloadDigest ? ` payloadDigest=${result.copy.payloadDigest}` : ''}`);
    if (result.before) context.print(stateLine('before', result.before.batch, result.before.item));
    if (result.outcome === 'resolved' || result.outcome === 'dry-run') {
      context.print(stateLine('after', result.after.batch, result.after.item));
      if (result.outcome === 'dry-run') context.print('Dry run: nothing was changed.');
      return EXIT.ok;
    }
    context.print(EXPLAIN[result.outcome]);
    return EXIT.refused;
  },
};
