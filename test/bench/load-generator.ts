import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The load generator as its own program, so it never shares an event loop (or a process) with the
 * servers under test. Reads `{ options, warmupSeconds, seconds }` as JSON on stdin, runs a warm-up and
 * then the measured run with autocannon, and prints the measured run's summary as JSON on stdout.
 */
interface Job {
  options: autocannon.Options;
  warmupSeconds: number;
  seconds: number;
  /** The server's process: its CPU time (user + system, all threads) is read around the measured run. */
  serverPid?: number;
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ), as the system states it. */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
if (!Number.isInteger(TICKS_PER_SECOND) || TICKS_PER_SECOND <= 0) throw new Error('getconf CLK_TCK gave no clock tick rate');
/** CPU seconds a process has used so far (fields 14 and 15 of /proc/<pid>/stat, after the command name). */
const cpuSecondsOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
};

let input = '';
for await (const chunk of process.stdin) input += chunk;
const job = JSON.parse(input) as Job;
if (job.warmupSeconds > 0) await autocannon({ ...job.options, duration: job.warmupSeconds });
const cpuBefore = job.serverPid ? cpuSecondsOf(job.serverPid) : 0;
const result = await autocannon({ ...job.options, duration: job.seconds });
const serverCpuSeconds = job.serverPid ? cpuSecondsOf(job.serverPid) - cpuBefore : undefined;
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    // The server's CPU per answered request, in microseconds: unlike throughput, barely moved by what
    // else the machine runs at the time (postgres, the load generator, another bench).
    serverCpuMicros: serverCpuSeconds === undefined ? undefined : (serverCpuSeconds * 1e6) / Math.max(1, result.requests.total),
  }),
);
