import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printSummary, readRatios } from './summary.ts';

/**
 * `npm run bench [name…]`: runs every test/bench/*.bench.ts (or the named ones) one after another,
 * each in its own process so that no bench warms or loads another's, then prints one table of every
 * ratio the benches recorded (see summary.ts).
 */
const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.includes(file.replace(/\.bench\.ts$/, '')))
  .sort();
if (files.length === 0) {
  console.error(`No bench matches ${wanted.join(', ')}`);
  process.exit(1);
}
const scratch = mkdtempSync(join(tmpdir(), 'css-bench-'));
const summaryFile = join(scratch, 'ratios.jsonl');
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_SUMMARY_FILE: summaryFile },
  });
  if (run.status !== 0) {
    failed += 1;
    console.log(`${file} failed (exit ${run.status})`);
  }
}
printSummary(readRatios(summaryFile));
rmSync(scratch, { recursive: true, force: true });
process.exit(failed === 0 ? 0 : 1);
