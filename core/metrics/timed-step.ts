import { inSpan } from '../tracing/trace-context.ts';
import { metrics, type Steps } from './recorder.ts';

/** One step of an operation: its span (`<operation>.<step>`) and its duration in `css_step_seconds`, failed or not. */
export const timedStep = <O extends keyof Steps, T>(operation: O, step: Steps[O], fn: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  return inSpan(`${operation}.${step}`, fn).finally(() => metrics().step(operation, step, (performance.now() - started) / 1000));
};
