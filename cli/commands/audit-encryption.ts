import { auditSealedValues } from '../../core/key-rotation/audit-sealed-values.ts';
import { EXIT, EXIT_CODES_HELP, type CliCommand } from '../command.ts';
import { auditOperatorAction } from '../operator-audit.ts';

/** What is sealed under which key, per column: read from the values' headers, nothing opened, no secret printed. */
export const auditEncryptionCommand: CliCommand = {
  name: 'audit-encryption',
  summary: 'Count the sealed values per table column and key (current, previous, unknown), opening nothing',
  configure: (command) =>
    command.addHelpText(
      'after',
      `
Prints one line per column and key: "<table.column> key=<key id> role=<current|previous|unknown|legacy|unreadable>
count=<n>", then "not under current key: <n>". Key ids are digests of the keys, never the keys.
${EXIT_CODES_HELP}`,
    ),
  run: async (context) => {
    const { db, logger, secretBox } = await context.deps();
    auditOperatorAction(logger, context.env, 'audit-encryption', { currentKeyId: await secretBox.currentKeyId() });
    const counts = await auditSealedValues(db, secretBox);
    for (const row of counts) context.print(`${row.column} key=${row.keyId} role=${row.role} count=${row.count}`);
    const behind = counts.filter((row) => row.role !== 'current').reduce((sum, row) => sum + row.count, 0);
    context.print(`not under current key: ${behind}`);
    return EXIT.ok;
  },
};
