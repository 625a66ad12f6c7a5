import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime and of /proc/stat (USER_HZ), as the system states it. */
export const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
if (!Number.isInteger(TICKS_PER_SECOND) || TICKS_PER_SECOND <= 0) throw new Error('getconf CLK_TCK gave no clock tick rate');

/** The fields of /proc/<pid>/stat after the command name (field 3 onwards). */
const statFields = (pid: number | string) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return { command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), fields: stat.slice(stat.lastIndexOf(')') + 2).split(' ') };
};

/** CPU seconds a process has used so far, all threads (fields 14 and 15 of /proc/<pid>/stat: utime, stime). */
export const cpuSecondsOf = (pid: number) => {
  const { fields } = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
};

/** The pids of this process's children running `command` (e.g. the workerd a Miniflare started). */
export const childPidsNamed = (command: string): number[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const { command: name, fields } = statFields(pid);
        return name === command && Number(fields[1]) === process.pid ? [Number(pid)] : [];
      } catch {
        return []; // exited meanwhile
      }
    });
