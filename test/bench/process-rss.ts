import { readFileSync } from 'node:fs';

/** A process's resident set size in MB (/proc/<pid>/status VmRSS). */
export const rssMbOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Samples a process's RSS every `everyMs` until stopped (stop before the process ends); `stop` gives the peak seen. */
export const sampleRssPeak = (pid: number, everyMs = 250) => {
  let peak = rssMbOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMbOf(pid))), everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssMbOf(pid));
    },
  };
};
