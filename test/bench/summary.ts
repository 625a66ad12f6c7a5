import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * The common collector of every bench's ratios. Each bench runs in its own process, so rows go to the
 * file named by BENCH_SUMMARY_FILE (set by `npm run bench`), which prints them all in one table at the end.
 */
export interface RatioRow {
  /** The bench file's name, e.g. `registrars`. */
  bench: string;
  /** What was measured against the reference, e.g. `GET /registrars/{id}, cached token`. */
  measured: string;
  /** What it was measured against, e.g. `same-SQL floor`. */
  reference: string;
  /** Median over the paired rounds of measured ÷ reference throughput (1 = as fast as the reference). */
  ratio: number;
  low: number;
  high: number;
  rounds: number;
  /** The ratio the bench aims for, when it has one. */
  target?: number;
  /** Median absolute figures, e.g. `4210 vs 5120 req/s`. */
  detail?: string;
}

const benchName = () => basename(process.argv[1] ?? 'bench').replace(/\.bench\.ts$/, '');
const recorded: RatioRow[] = [];

export const recordRatio = (row: Omit<RatioRow, 'bench'>): RatioRow => {
  const full = { bench: benchName(), ...row };
  recorded.push(full);
  const file = process.env.BENCH_SUMMARY_FILE;
  if (file) appendFileSync(file, `${JSON.stringify(full)}\n`);
  return full;
};

export const recordedRatios = (): RatioRow[] => [...recorded];

export const readRatios = (file: string): RatioRow[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as RatioRow)
    : [];

export const percent = (value: number) => `${Math.round(value * 100)}%`;

export const printSummary = (rows: RatioRow[], title = 'Summary: every ratio (median of paired rounds)') => {
  console.log(`\n${title}`);
  if (rows.length === 0) return console.log('(no ratios recorded)');
  console.table(
    rows.map((row) => ({
      bench: row.bench,
      measured: row.measured,
      against: row.reference,
      ratio: percent(row.ratio),
      'spread (min–max)': `${percent(row.low)}–${percent(row.high)}`,
      rounds: row.rounds,
      target: row.target === undefined ? '' : `≥ ${percent(row.target)}`,
      met: row.target === undefined ? '' : row.ratio >= row.target ? 'yes' : 'NO',
      detail: row.detail ?? '',
    })),
  );
};
