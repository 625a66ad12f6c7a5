import { readFileSync } from 'node:fs';
import { TICKS_PER_SECOND } from './process-cpu.ts';

/**
 * CPU seconds the whole machine has spent busy so far, every core and every process (the web process, the
 * services, PostgreSQL, the load generator, anything else running): /proc/stat's aggregate `cpu` line,
 * user + nice + system + irq + softirq + steal (idle and iowait left out; guest time is already in user and nice).
 */
export const machineCpuSeconds = () => {
  const line = readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no aggregate cpu line');
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return [user, nice, system, irq, softirq, steal].reduce<number>((sum, ticks) => sum + (ticks ?? 0), 0) / TICKS_PER_SECOND;
};

/**
 * Reads machineCpuSeconds every `everyMs` until stopped, so the machine CPU of a window known only afterwards
 * (e.g. a batch's first claim to its settlement, read from the database) can be taken: `secondsBetween`
 * interpolates linearly between the readings either side of each end (clamped to the span read).
 */
export const recordMachineCpu = (everyMs = 100) => {
  const readings = [{ at: Date.now(), cpu: machineCpuSeconds() }];
  const read = () => readings.push({ at: Date.now(), cpu: machineCpuSeconds() });
  const timer = setInterval(read, everyMs);
  const cpuAt = (ms: number) => {
    const after = readings.findIndex((r) => r.at >= ms);
    if (after <= 0) return after === 0 ? readings[0]!.cpu : readings.at(-1)!.cpu;
    const [x, y] = [readings[after - 1]!, readings[after]!];
    return x.cpu + ((y.cpu - x.cpu) * (ms - x.at)) / Math.max(1, y.at - x.at);
  };
  return {
    stop: () => {
      clearInterval(timer);
      read();
    },
    secondsBetween: (fromMs: number, toMs: number) => cpuAt(toMs) - cpuAt(fromMs),
  };
};
