import { rotateSealedValues } from '../../core/key-rotation/rotate-sealed-values.ts';
import { integerArgument } from '../batch-item-arguments.ts';
import { EXIT, EXIT_CODES_HELP, type CliCommand } from '../command.ts';
import { auditOperatorAction } from '../operator-audit.ts';

const DEFAULT_BATCH_SIZE = 200;

/**
 * Re-seals every value not yet under DATA_ENCRYPTION_KEY, opening it with DATA_ENCRYPTION_KEY_PREVIOUS,
 * while the service runs (README "Rotating DATA_ENCRYPTION_KEY"). Each batch commits on its own, so a run
 * that stops midway is simply run again.
 */
export const rotateEncryptionKeyCommand: CliCommand = {
  name: 'rotate-encryption-key',
  summary: 'Re-seal everything sealed under DATA_ENCRYPTION_KEY_PREVIOUS (or before key ids) with DATA_ENCRYPTION_KEY',
  configure: (command) =>
    command.option('--batch-size <rows>', `rows re-sealed per transaction (default ${DEFAULT_BATCH_SIZE})`).addHelpText(
      'after',
      `
Run with DATA_ENCRYPTION_KEY set to the new key and DATA_ENCRYPTION_KEY_PREVIOUS to the old one, after every
web process and worker runs with both. Prints "<table.column>: <n> re-sealed" on stderr after each batch and
one summary line per column on stdout; writes audit lines at warn. Resumable: run it again after a stop.
Exit 1 when some value opened with neither key (left as it was; see audit-encryption).
${EXIT_CODES_HELP}`,
    ),
  run: async (context, _args, options) => {
    const batchSize = options.batchSize === undefined ? DEFAULT_BATCH_SIZE : integerArgument('batch-size', options.batchSize, 1);
    const { db, logger, secretBox } = await context.deps();
    const toKeyId = await secretBox.currentKeyId();
    const fromKeyId = (await secretBox.previousKeyId()) ?? null;
    if (!fromKeyId) context.note('DATA_ENCRYPTION_KEY_PREVIOUS is not set: only values sealed before key ids can be re-sealed');
    auditOperatorAction(logger, context.env, 'rotate-encryption-key', { phase: 'started', fromKeyId, toKeyId, batchSize });
    const outcome = await rotateSealedValues(db, secretBox, {
      batchSize,
      onBatch: (progress) => context.note(`${progress.column}: ${progress.resealed} re-sealed`),
    });
    for (const column of outcome) {
      context.print(`${column.column} resealed=${column.resealed} changedMeanwhile=${column.changedMeanwhile} unopenable=${column.unopenable}`);
    }
    const total = (field: 'resealed' | 'unopenable') => outcome.reduce((sum, column) => sum + column[field], 0);
    auditOperatorAction(logger, context.env, 'rotate-encryption-key', {
      phase: 'finished',
      fromKeyId,
      toKeyId,
      resealed: total('resealed'),
      unopenable: total('unopenable'),
    });
    if (total('unopenable') > 0) {
      context.note(`${total('unopenable')} value(s) opened with neither key and were left as they were`);
      return EXIT.failed;
    }
    return EXIT.ok;
  },
};
