import { readFileSync, writeFileSync } from 'node:fs';

/**
 * A `.cpuprofile` cut to a window of wall-clock time (e.g. a batch run from its first claim to its
 * settlement, leaving out the process's start-up), written beside it as `<name>.window.cpuprofile`
 * for profile-summary.ts. `startedAtMs` is when the process was spawned: the profile's own clock starts
 * with the process (a few ms later), so the cut is that close.
 */
export const cutProfile = (file: string, startedAtMs: number, fromMs: number, toMs: number): { file: string; seconds: number } => {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };
  const from = profile.startTime + (fromMs - startedAtMs) * 1000;
  const to = profile.startTime + (toMs - startedAtMs) * 1000;
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  let last = from;
  profile.samples.forEach((sample, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > to) return;
    samples.push(sample);
    timeDeltas.push(at - last);
    last = at;
  });
  const out = file.replace(/\.cpuprofile$/, '.window.cpuprofile');
  writeFileSync(out, JSON.stringify({ ...profile, samples, timeDeltas, startTime: from, endTime: to }));
  return { file: out, seconds: (to - from) / 1e6 };
};
