import { domainDeps } from '../../core/deps.ts';
import { rotateManagedDidKey } from '../../core/dids/rotate-did-key.ts';
import { textArgument } from '../batch-item-arguments.ts';
import { EXIT, EXIT_CODES_HELP, type CliCommand } from '../command.ts';
import { auditOperatorAction } from '../operator-audit.ts';

const EXPLAIN = {
  missing: 'The tenant has no DID with this id.',
  'not-managed': "Only a MANAGED DID's keys are held by the VC service; a SELF_MANAGED or DEFAULT DID is refused.",
} as const;

/** A new signing key for a tenant's MANAGED DID; the old key stays in its document for verifying. */
export const rotateDidKeyCommand: CliCommand = {
  name: 'rotate-did-key',
  summary: "Give a tenant's MANAGED DID a new signing key (the old one stays in its document for verifying)",
  configure: (command) =>
    command
      .requiredOption('--tenant <id>', 'tenant that owns the DID')
      .requiredOption('--did <id>', 'the DID record id (as the API answers it)')
      .requiredOption('--reason <ticket>', 'why the key is rotated, for the audit line')
      .addHelpText(
        'after',
        `
Prints "outcome: rotated" with the DID and its new and previous key ids. Needs this project's VC service
(the didManagerRotateKey method). Writes an audit line at warn level (stderr).
Outcome words (exit 3): ${Object.keys(EXPLAIN).join(', ')}.
${EXIT_CODES_HELP}`,
      ),
  run: async (context, _args, options) => {
    const tenantId = textArgument('tenant', options.tenant);
    const didId = textArgument('did', options.did);
    const reason = textArgument('reason', options.reason);
    const deps = await context.deps();
    const audit = (outcome: string, extra: Record<string, unknown> = {}) =>
      auditOperatorAction(deps.logger, context.env, 'rotate-did-key', { tenantId, didId, reason, outcome, ...extra });
    const result = await rotateManagedDidKey(domainDeps(deps), tenantId, didId).catch((error: unknown) => {
      audit('failed', { error: String(error) });
      throw error;
    });
    context.print(`outcome: ${result.outcome}`);
    if (result.outcome !== 'rotated') {
      audit(result.outcome);
      context.print(EXPLAIN[result.outcome]);
      return EXIT.refused;
    }
    audit(result.outcome, { did: result.did, keyId: result.keyId, previousKeyId: result.previousKeyId });
    context.print(`did=${result.did} keyId=${result.keyId} previousKeyId=${result.previousKeyId ?? '-'}`);
    return EXIT.ok;
  },
};
