import autocannon from 'autocannon';
import { machineCpuSeconds } from './machine-cpu.ts';
import { cpuSecondsOf } from './process-cpu.ts';

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

let input = '';
for await (const chunk of process.stdin) input += chunk;
const job = JSON.parse(input) as Job;
if (job.warmupSeconds > 0) await autocannon({ ...job.options, duration: job.warmupSeconds });
const cpuBefore = job.serverPid ? cpuSecondsOf(job.serverPid) : 0;
const machineBefore = machineCpuSeconds();
const result = await autocannon({ ...job.options, duration: job.seconds });
const machineCpuSecondsUsed = machineCpuSeconds() - machineBefore;
const serverCpuSeconds = job.serverPid ? cpuSecondsOf(job.serverPid) - cpuBefore : undefined;
const answered = Math.max(1, result.requests.total);
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    // The server's CPU per answered request, in microseconds: unlike throughput, barely moved by what
    // else the machine runs at the time (postgres, the load generator, another bench).
    serverCpuMicros: serverCpuSeconds === undefined ? undefined : (serverCpuSeconds * 1e6) / answered,
    // The whole machine's busy CPU per answered request (every process, this load generator's too): what one
    // request costs the machine, the figure a rate target on these cores has to fit in.
    machineCpuMicros: (machineCpuSecondsUsed * 1e6) / answered,
  }),
);
