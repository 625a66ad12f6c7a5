import { readFileSync } from 'node:fs';

/**
 * Where a `.cpuprofile`'s time goes, per request:
 *   node --import tsx test/bench/profile-summary.ts <profile> <req/s> [<other profile> <req/s>]
 * One profile: self time by package (or project folder) and the top functions, in µs per request. Two:
 * the functions on which the second spends more per request than the first (e.g. the real route against
 * its floor), with both figures. Profiles from profile-registrars.ts cover the measured run alone.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const areaOf = (url: string) => {
  if (url === '') return '(native / V8)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const project = url.match(/\/(functions|core|db|test)\/([^/]+)/);
  return project ? `${project[1]}/${project[2]}` : url;
};

/** Self time in µs per request, by area and by function. */
const perRequest = (file: string, requestsPerSecond: number) => {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const requests = (requestsPerSecond * (profile.endTime - profile.startTime)) / 1e6;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const us = (profile.timeDeltas[i] ?? 0) / requests;
    const special = functionName.startsWith('(') ? functionName : undefined;
    const area = special ?? areaOf(url);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const fn = special ?? `${functionName || '(anonymous)'} ${areaOf(url)}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  });
  const busy = [...byArea].filter(([area]) => area !== '(idle)').reduce((sum, [, us]) => sum + us, 0);
  return { byArea, byFunction, busy };
};

const table = (map: Map<string, number>, n: number) =>
  [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, us]) => ({ name, 'µs/request': us.toFixed(2) }));

const [first, firstRate, second, secondRate] = process.argv.slice(2);
if (!first || !firstRate) throw new Error('usage: profile-summary.ts <profile> <req/s> [<other profile> <req/s>]');
const a = perRequest(first, Number(firstRate));
if (!second || !secondRate) {
  console.log(`busy: ${a.busy.toFixed(1)} µs of CPU per request`);
  console.table(table(a.byArea, 25));
  console.table(table(a.byFunction, 30));
} else {
  const b = perRequest(second, Number(secondRate));
  console.log(`busy: ${a.busy.toFixed(1)} µs per request in the first, ${b.busy.toFixed(1)} µs in the second`);
  const names = new Set([...a.byFunction.keys(), ...b.byFunction.keys()]);
  const rows = [...names]
    .map((name) => ({ name, first: a.byFunction.get(name) ?? 0, second: b.byFunction.get(name) ?? 0 }))
    .map((row) => ({ ...row, more: row.second - row.first }))
    .sort((x, y) => y.more - x.more)
    .slice(0, 40);
  console.table(rows.map((row) => ({ name: row.name, 'µs more': row.more.toFixed(2), first: row.first.toFixed(2), second: row.second.toFixed(2) })));
}
