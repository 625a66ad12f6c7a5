import { measure, ROUNDS, type LoadOptions, type LoadResult } from './lib.ts';
import { recordRatio, type RatioRow } from './summary.ts';

export interface Contender {
  name: string;
  load: LoadOptions;
  /** The share of the reference's throughput this contender aims for. */
  target?: number;
  /**
   * Requests that make up one operation (default 1): a floor that cycles through several calls per
   * operation (e.g. mint a status entry, then sign) reports operations per second, its latencies stay per request.
   */
  requestsPerOperation?: number;
  /** Wraps each of its runs (e.g. to read the server's metrics before and after it). */
  around?: <T>(run: () => Promise<T>) => Promise<T>;
}

/** The median (the mean of the middle two for an even count). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Every contender's runs, one per round, in paired rounds; the median figures of each. */
export interface PairedResults {
  rounds: number;
  runs: Map<string, LoadResult[]>;
  medianOf(name: string, key: 'requestsPerSecond' | 'p50' | 'p99'): number;
}

const cpuOf = (run: LoadResult) => run.serverCpuMicros;

/**
 * A contender's median CPU µs: of its server's process per request ('server'), or of the whole machine per
 * operation ('machine'); undefined unless every run has it.
 */
export const medianCpuOf = (results: PairedResults, name: string, of: 'server' | 'machine') => {
  const values = results.runs.get(name)!.map((run) => (of === 'server' ? cpuOf(run) : run.machineCpuMicros));
  return values.every((value) => value !== undefined) ? Math.round(median(values)) : undefined;
};

/**
 * Measures contenders in `rounds` paired rounds. The order alternates (as given in even rounds,
 * reversed in odd ones) so no contender always gets the warmer machine; prints the medians.
 */
export const pairedMeasurements = async (title: string, everyone: Contender[], rounds = ROUNDS): Promise<PairedResults> => {
  const runs = new Map<string, LoadResult[]>(everyone.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? everyone : [...everyone].reverse();
    for (const contender of order) {
      const measured = () => measure(contender.name, contender.load);
      const run = await (contender.around ? contender.around(measured) : measured());
      const perOperation = contender.requestsPerOperation ?? 1;
      runs.get(contender.name)!.push({
        ...run,
        requestsPerSecond: Math.round(run.requestsPerSecond / perOperation),
        machineCpuMicros: run.machineCpuMicros === undefined ? undefined : run.machineCpuMicros * perOperation,
      });
    }
  }
  const medianOf = (name: string, key: 'requestsPerSecond' | 'p50' | 'p99') => Math.round(median(runs.get(name)!.map((run) => run[key])));
  const results = { rounds, runs, medianOf };
  console.log(`\n${title} (${rounds} paired rounds, order alternating)`);
  console.table(
    everyone.map(({ name }) => {
      const serverCpu = medianCpuOf(results, name, 'server');
      return {
        run: name,
        'median req/s': medianOf(name, 'requestsPerSecond'),
        'per round': runs.get(name)!.map((run) => run.requestsPerSecond).join(' '),
        'p50 ms': medianOf(name, 'p50'),
        'p99 ms': medianOf(name, 'p99'),
        ...(serverCpu === undefined ? {} : { 'server CPU µs/req': serverCpu }),
        'machine CPU µs/op': medianCpuOf(results, name, 'machine') ?? '',
      };
    }),
  );
  return results;
};

/** Records `measured` ÷ `reference` throughput, taken within each round; the median with its spread. */
export const recordPairedRatio = (results: PairedResults, measured: string, reference: string, target?: number): RatioRow => {
  const referenceRuns = results.runs.get(reference)!;
  const ratios = results.runs.get(measured)!.map((run, i) => run.requestsPerSecond / referenceRuns[i]!.requestsPerSecond);
  return recordRatio({
    measured,
    reference,
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    rounds: results.rounds,
    target,
    detail: `${results.medianOf(measured, 'requestsPerSecond')} vs ${results.medianOf(reference, 'requestsPerSecond')} req/s`,
  });
};

/**
 * Records the reference's server CPU per request ÷ the measured one's, taken within each round (1 = as
 * cheap as the reference), when both ran in processes of their own: the cost ratio that throughput shows
 * only through the noise of everything else sharing the machine's two cores. Undefined otherwise.
 */
export const recordPairedCpuRatio = (results: PairedResults, measured: string, reference: string): RatioRow | undefined => {
  const referenceRuns = results.runs.get(reference)!;
  const measuredRuns = results.runs.get(measured)!;
  if (![...referenceRuns, ...measuredRuns].every((run) => cpuOf(run) !== undefined)) return undefined;
  const ratios = measuredRuns.map((run, i) => cpuOf(referenceRuns[i]!)! / cpuOf(run)!);
  return recordRatio({
    measured: `${measured} (server CPU per request)`,
    reference,
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    rounds: results.rounds,
    detail: `${medianCpuOf(results, measured, 'server')} vs ${medianCpuOf(results, reference, 'server')} µs CPU/req`,
  });
};

/**
 * Measures a reference and its contenders in `rounds` paired rounds (pairedMeasurements); each
 * contender's ratio is taken within a round, and the median ratio is reported with its spread, beside
 * the server-CPU-per-request ratio when every server runs in a process of its own.
 */
export const pairedRounds = async (
  title: string,
  reference: Contender,
  contenders: Contender[],
  rounds = ROUNDS,
): Promise<RatioRow[]> => {
  const results = await pairedMeasurements(title, [reference, ...contenders], rounds);
  return contenders.flatMap((contender) => {
    const throughput = recordPairedRatio(results, contender.name, reference.name, contender.target);
    const cpu = recordPairedCpuRatio(results, contender.name, reference.name);
    return cpu ? [throughput, cpu] : [throughput];
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
