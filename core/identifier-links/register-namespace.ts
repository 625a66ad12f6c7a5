import type { IdrAdapter, SchemeRegistration } from '../adapters/idr/idr-adapter.ts';

type Registered = NonNullable<Awaited<ReturnType<IdrAdapter['getScheme']>>>;
const FIELDS = ['title', 'label', 'shortcode', 'type', 'regex', 'qualifiers'] as const;

/** How the resolver's registration of a namespace differs from ours, one line per application identifier. */
export const registrationDifferences = (ours: SchemeRegistration, theirs: Registered): string[] =>
  ours.applicationIdentifiers.flatMap((mine) => {
    const held = theirs.applicationIdentifiers.find((a) => (a.ai ?? a.shortcode) === mine.ai);
    if (!held) return [`ai ${mine.ai}: not registered upstream`];
    return FIELDS.flatMap((field) => {
      const [a, b] = [JSON.stringify(held[field] ?? null), JSON.stringify(mine[field] ?? null)];
      return a === b ? [] : [`ai ${mine.ai}: ${field} is ${a} upstream, ${b} here`];
    });
  });

/**
 * Registers a namespace only where that overwrites nothing: when the resolver has none under that
 * name, or already holds exactly ours (nothing to send). The resolver's upsert replaces application
 * identifiers by ai, so registering over a differing registration would break its other clients:
 * that one is left as it is, and its differences are returned for the caller to report.
 */
export const registerNamespaceIfAbsent = async (adapter: IdrAdapter, ours: SchemeRegistration): Promise<{ outcome: 'registered' | 'unchanged' } | { outcome: 'kept'; differences: string[] }> => {
  const theirs = await adapter.getScheme(ours.namespace);
  if (!theirs) {
    await adapter.registerScheme(ours);
    return { outcome: 'registered' };
  }
  const differences = registrationDifferences(ours, theirs);
  return differences.length ? { outcome: 'kept', differences } : { outcome: 'unchanged' };
};
