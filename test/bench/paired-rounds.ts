import { measure, ROUNDS, type LoadOptions, type LoadResult } from './lib.ts';
import { recordRatio, type RatioRow } from './summary.ts';

export interface Contender {
  name: string;
  load: LoadOptions;
  /** The share of the reference's throughput this contender aims for. */
  target?: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Measures a reference and its contenders in `rounds` paired rounds. The order alternates (reference
 * first in even rounds, last in odd ones) so neither side always gets the warmer machine; each
 * contender's ratio is taken within a round, and the median ratio is reported with its spread.
 */
export const pairedRounds = async (
  title: string,
  reference: Contender,
  contenders: Contender[],
  rounds = ROUNDS,
): Promise<RatioRow[]> => {
  const everyone = [reference, ...contenders];
  const results = new Map<string, LoadResult[]>(everyone.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? everyone : [...everyone].reverse();
    for (const contender of order) results.get(contender.name)!.push(await measure(contender.name, contender.load));
  }
  const referenceRuns = results.get(reference.name)!;
  const medianOf = (name: string, key: 'requestsPerSecond' | 'p50' | 'p99') =>
    Math.round(median(results.get(name)!.map((run) => run[key])));

  console.log(`\n${title} (${rounds} paired rounds, order alternating)`);
  console.table(
    everyone.map(({ name }) => ({
      run: name,
      'median req/s': medianOf(name, 'requestsPerSecond'),
      'per round': results.get(name)!.map((run) => run.requestsPerSecond).join(' '),
      'p50 ms': medianOf(name, 'p50'),
      'p99 ms': medianOf(name, 'p99'),
    })),
  );
  return contenders.map((contender) => {
    const ratios = results.get(contender.name)!.map((run, i) => run.requestsPerSecond / referenceRuns[i]!.requestsPerSecond);
    return recordRatio({
      measured: contender.name,
      reference: reference.name,
      ratio: median(ratios),
      low: Math.min(...ratios),
      high: Math.max(...ratios),
      rounds,
      target: contender.target,
      detail: `${medianOf(contender.name, 'requestsPerSecond')} vs ${medianOf(reference.name, 'requestsPerSecond')} req/s`,
    });
  });
};

/** Paired rounds of one-off timings (e.g. a bulk create), as throughput ratios: reference time ÷ measured time. */
export const pairedTimings = async (
  reference: { name: string; run: () => Promise<number> },
  measured: { name: string; run: () => Promise<number>; target?: number },
  rounds = ROUNDS,
): Promise<{ row: RatioRow; referenceMs: number[]; measuredMs: number[] }> => {
  const referenceMs: number[] = [];
  const measuredMs: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      referenceMs.push(await reference.run());
      measuredMs.push(await measured.run());
    } else {
      measuredMs.push(await measured.run());
      referenceMs.push(await reference.run());
    }
  }
  const ratios = referenceMs.map((ms, i) => ms / measuredMs[i]!);
  const row = recordRatio({
    measured: measured.name,
    reference: reference.name,
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    rounds,
    target: measured.target,
    detail: `${Math.round(median(measuredMs))} vs ${Math.round(median(referenceMs))} ms`,
  });
  return { row, referenceMs, measuredMs };
};
