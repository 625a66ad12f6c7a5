import { Piscina } from 'piscina';
import { ApiError } from '../errors.ts';
import type { Sanitised } from './sanitize.ts';
import { SANITIZE_BUDGET_MS } from './template-limits.ts';

/**
 * Render-template sanitising runs in worker threads, so one hostile template cannot stall the event
 * loop (API, health check, everything else in the process). A task over its time budget is aborted,
 * which terminates its thread, and the request gets 422 TEMPLATE_TOO_COMPLEX.
 */
const THREADS = 2;
let pool: { piscina: Piscina; warm: Promise<unknown> } | undefined;

/** The pool, its threads started and the sanitiser loaded in each before any budget runs. */
const sanitiserPool = () => {
  if (!pool) {
    const piscina = new Piscina({
      // Beside this module: the .ts source under tsx, the compiled .js in the image (npm run build).
      filename: new URL(`./sanitize-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href,
      minThreads: THREADS,
      maxThreads: THREADS,
      idleTimeout: 60_000,
    });
    pool = { piscina, warm: Promise.all(Array.from({ length: THREADS }, () => piscina.run(''))) };
  }
  return pool;
};

export const sanitizeOffThread = async (html: string, budgetMs = SANITIZE_BUDGET_MS): Promise<Sanitised> => {
  const { piscina, warm } = sanitiserPool();
  await warm;
  try {
    return (await piscina.run(html, { signal: AbortSignal.timeout(budgetMs) })) as Sanitised;
  } catch (error) {
    if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
      throw new ApiError(422, `template: sanitising took longer than ${budgetMs} ms; simplify the template`, 'TEMPLATE_TOO_COMPLEX');
    }
    throw error;
  }
};

/** Stops the worker threads (tests and shutdown). */
export const closeSanitiserPool = async () => {
  const closing = pool;
  pool = undefined;
  await closing?.piscina.destroy();
};
