import { UsageError } from './command.ts';

/**
 * The argument rules the batch recovery commands share (spec "Operator commands"): no NUL character,
 * no blank value, and numbers as plain digits. `--index=-1` reaches here as "-1" and is refused as
 * a number; `--index -1` (a value starting with a minus sign after a space) is refused earlier by
 * `refuseDashValues`, since it reads like another option.
 */
export const textArgument = (name: string, value: unknown): string => {
  if (typeof value !== 'string') throw new UsageError(`--${name}: is required`);
  if (value.includes('\0')) throw new UsageError(`--${name}: must not contain a NUL character`);
  if (value.trim() === '') throw new UsageError(`--${name}: must not be blank`);
  return value.trim();
};

/** Like textArgument, but absent stays undefined (the repository decides what a missing value means). */
export const optionalTextArgument = (name: string, value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.includes('\0')) throw new UsageError(`--${name}: must not contain a NUL character`);
  return value as string;
};

const MAX_INT = 2_147_483_647;

/** A plain decimal integer from `min` up to 2147483647. */
export const integerArgument = (name: string, value: unknown, min: number): number => {
  const text = textArgument(name, value);
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > MAX_INT) {
    throw new UsageError(`--${name}: must be an integer from ${min} to ${MAX_INT}, got "${text}"`);
  }
  return Number(text);
};

export interface BatchItemTarget {
  tenantId: string;
  batchId: string;
  index: number;
}

export const batchItemTarget = (options: Record<string, unknown>): BatchItemTarget => ({
  tenantId: textArgument('tenant', options.tenant),
  batchId: textArgument('batch', options.batch),
  index: integerArgument('index', options.index, 0),
});

/**
 * A value option given as `--name value` whose value starts with `-` is refused: it reads like
 * another option (`--reason --dry-run` would otherwise swallow the flag). `--name=-1` is the way.
 */
export const refuseDashValues = (argv: readonly string[], valueOptions: readonly string[]): void => {
  argv.forEach((token, i) => {
    const next = argv[i + 1];
    if (valueOptions.includes(token) && next !== undefined && next.startsWith('-')) {
      throw new UsageError(`${token}: "${next}" reads as an option; a value starting with a minus sign is written ${token}=<value>`);
    }
  });
};
