import { writeFileSync, renameSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Loaded into a bench's web process with `--import` (isolation.bench.ts starts the web process with it): it
 * measures the event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution) in windows. Each
 * SIGUSR2 ends the current window: its delay figures are written to EVENT_LOOP_PROBE_FILE (JSON, ms,
 * written whole then renamed) and a new window starts. With EVENT_LOOP_PROBE_PROFILE_DIR set, each
 * window is also a CPU profile of its own (`window-<n>.cpuprofile`), so a profile covers one kind of load.
 *
 * The delay counts the time the process was not given a CPU as well (a loaded machine). So the probe
 * also records the main thread's own CPU time between two ticks of a 10 ms timer (`held`): how long
 * the thread was kept busy between two chances to run a timer, whatever the machine's load.
 */
const file = process.env.EVENT_LOOP_PROBE_FILE;
const profileDir = process.env.EVENT_LOOP_PROBE_PROFILE_DIR;

if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const held = createHistogram();
  // process.threadCpuUsage came with Node 22.19: on an older Node `held` stays empty (reported as 0) rather than throwing in the measured process.
  const threadCpu = typeof process.threadCpuUsage === 'function' ? () => process.threadCpuUsage() : () => undefined;
  let lastCpu = threadCpu();
  setInterval(() => {
    const cpu = threadCpu();
    if (cpu && lastCpu) held.record(Math.max(1, cpu.user - lastCpu.user + cpu.system - lastCpu.system));
    lastCpu = cpu;
  }, 10).unref();
  const session = profileDir ? new Session() : undefined;
  const post = <T>(method: string): Promise<T> =>
    new Promise((resolve, reject) => session!.post(method, (error, result) => (error ? reject(error) : resolve(result as T))));
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  let window = 0;
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  process.on('SIGUSR2', async () => {
    const figures = {
      window,
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
      mean: ms(delay.mean),
      samples: delay.count,
      heldP99: Math.round(held.percentile(99) / 100) / 10,
      heldMax: Math.round(held.max / 100) / 10,
    };
    if (session) {
      const { profile } = await post<{ profile: unknown }>('Profiler.stop');
      writeFileSync(`${profileDir}/window-${window}.cpuprofile`, JSON.stringify(profile));
      await post('Profiler.start');
    }
    // Reset after the profile is written: writing it is the probe's work, not the window's.
    delay.reset();
    held.reset();
    lastCpu = threadCpu();
    window += 1;
    writeFileSync(`${file}.partial`, JSON.stringify(figures));
    renameSync(`${file}.partial`, file);
  });
}
