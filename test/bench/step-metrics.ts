import type { Steps } from '../../core/metrics/recorder.ts';

/** The bearer every bench process serves `/metrics` to (METRICS_BEARER_TOKEN). */
export const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';

/** `css_step_seconds` totals of one process, by `<operation> <step>`. */
export type StepTotals = Map<string, { count: number; seconds: number }>;

/** The step histogram's `_count` and `_sum` of the process serving `url`. */
export const scrapeSteps = async (url: string): Promise<StepTotals> => {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`${url}/metrics: ${res.status}`);
  const totals: StepTotals = new Map();
  for (const line of (await res.text()).split('\n')) {
    const match = /^css_step_seconds_(count|sum)\{(.*)\} (\S+)$/.exec(line);
    if (!match) continue;
    const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(match[2]!)?.[1];
    const key = `${label('operation')} ${label('step')}`;
    const entry = totals.get(key) ?? { count: 0, seconds: 0 };
    if (match[1] === 'count') entry.count = Number(match[3]);
    else entry.seconds = Number(match[3]);
    totals.set(key, entry);
  }
  return totals;
};

/** Adds what each step gained between two scrapes to `into`. */
export const addStepsBetween = (into: StepTotals, before: StepTotals, after: StepTotals) => {
  for (const [key, { count, seconds }] of after) {
    const was = before.get(key) ?? { count: 0, seconds: 0 };
    const sum = into.get(key) ?? { count: 0, seconds: 0 };
    into.set(key, { count: sum.count + count - was.count, seconds: sum.seconds + seconds - was.seconds });
  }
};

/** Scrapes around `run` and adds what it recorded to `into`. */
export const recordingSteps =
  (url: string, into: StepTotals) =>
  async <T>(run: () => Promise<T>): Promise<T> => {
    const before = await scrapeSteps(url);
    const result = await run();
    addStepsBetween(into, before, await scrapeSteps(url));
    return result;
  };

/**
 * Prints where one operation's time went, step by step (the process's own `css_step_seconds`: wall time, mean
 * per run of a step), then `context`: the time per operation it is part of, and what to hold the steps against.
 */
export const printSteps = <O extends keyof Steps>(what: string, operation: O, totals: StepTotals, context: string, ahead: Steps[O][] = []) => {
  const steps = [...totals].filter(([key, { count }]) => key.startsWith(`${operation} `) && count > 0);
  if (steps.length === 0) return console.log(`Steps of ${what}: none recorded`);
  const stepOf = (key: string) => key.slice(operation.length + 1) as Steps[O];
  const parts = steps.map(([key, { count, seconds }]) => `${stepOf(key)} ${((seconds / count) * 1000).toFixed(2)} ms`);
  const sum = steps.filter(([key]) => !ahead.includes(stepOf(key))).reduce((total, [, { count, seconds }]) => total + (seconds / count) * 1000, 0);
  const leftOut = ahead.length ? ` (${ahead.join(', ')} left out: run ahead, beside the step before)` : '';
  console.log(`Steps of ${what} (css_step_seconds: wall time, mean per run of a step): ${parts.join(', ')}; together${leftOut} ${sum.toFixed(2)} ms; ${context}`);
};
