import autocannon from 'autocannon';

/**
 * The load generator as its own program, so it never shares an event loop (or a process) with the
 * servers under test. Reads `{ options, warmupSeconds, seconds }` as JSON on stdin, runs a warm-up and
 * then the measured run with autocannon, and prints the measured run's summary as JSON on stdout.
 */
interface Job {
  options: autocannon.Options;
  warmupSeconds: number;
  seconds: number;
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const job = JSON.parse(input) as Job;
if (job.warmupSeconds > 0) await autocannon({ ...job.options, duration: job.warmupSeconds });
const result = await autocannon({ ...job.options, duration: job.seconds });
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }),
);
