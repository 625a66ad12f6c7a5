import { readFileSync } from 'node:fs';

/** Prints where a `.cpuprofile`'s self time goes: by package (or project folder), then the top functions. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const byArea = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
const areaOf = (url: string) => {
  if (url === '') return '(native / V8 / GC)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const project = url.match(/\/(functions|core|db|test)\/([^/]+)/);
  return project ? `${project[1]}/${project[2]}` : url;
};
profile.samples.forEach((id, i) => {
  const node = nodes.get(id)!;
  const delta = profile.timeDeltas[i] ?? 0;
  total += delta;
  const { functionName, url, lineNumber } = node.callFrame;
  const area = functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)' ? functionName : areaOf(url);
  byArea.set(area, (byArea.get(area) ?? 0) + delta);
  const fn = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + delta);
});
const top = (map: Map<string, number>, n: number) =>
  [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, us]) => ({ name, '%': ((us / total) * 100).toFixed(1) }));
console.table(top(byArea, 25));
console.table(top(byFunction, 30));
