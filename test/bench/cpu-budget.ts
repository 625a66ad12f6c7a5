import { availableParallelism } from 'node:os';

/** A rate target and the CPU figures of the same run to hold it against. */
export interface CpuBudget {
  /** What the target is, e.g. `issuance at 50% of the VC floor`. */
  target: string;
  /** Operations per second the target asks for. */
  perSecond: number;
  /** One operation's name, e.g. `issuance`, `item`. */
  operation: string;
  /** The whole machine's busy CPU per operation while the route (or batch) ran, µs. */
  machineMicros: number;
  /** The rate the route (or batch) reached meanwhile: × machineMicros, the cores the machine kept busy. */
  measuredPerSecond: number;
  /** Figures shown beside it, µs per operation (e.g. the web process's, the floor's machine CPU); undefined ones are left out. */
  beside?: Record<string, number | undefined>;
}

const ms = (micros: number) => `${(micros / 1000).toFixed(2)} ms`;

let noted = false;

/**
 * Prints a rate target as CPU arithmetic on this run's figures: R operations per second on N cores leave at most
 * N ÷ R seconds of machine CPU per operation. When the measured machine CPU per operation is more, N cores busy all
 * the time could not reach R at that cost, so the target is out of reach by CPU alone on this machine (other limits,
 * latency or locks, may bind before it); when it is less, the CPU would allow it and nothing more is said.
 * The first call prints what the arithmetic rests on.
 */
export const printCpuBudget = (budget: CpuBudget, cores = availableParallelism()) => {
  if (!noted) {
    console.log(
      `\nCPU budgets: arithmetic on this run's figures (medians where there are rounds), not a proof. Machine CPU is /proc/stat's busy time of every process ` +
        `(servers, PostgreSQL, the load generator, and any other work on the machine meanwhile) over the measured part, per operation; ` +
        `the cost per operation may differ at another rate.`,
    );
    noted = true;
  }
  const allowed = (cores / budget.perSecond) * 1e6;
  const rate = Math.round(budget.perSecond);
  const beside = Object.entries(budget.beside ?? {})
    .filter((entry): entry is [string, number] => entry[1] !== undefined)
    .map(([what, micros]) => `${what} ${ms(micros)}`);
  const measured = [`machine ${ms(budget.machineMicros)}`, ...beside].join('; ');
  const busy = `at ${Math.round(budget.measuredPerSecond)}/s the machine was busy about ${((budget.machineMicros * budget.measuredPerSecond) / 1e6).toFixed(1)} of ${cores} cores`;
  const verdict =
    budget.machineMicros > allowed
      ? `out of reach by CPU alone on this machine: ${(budget.machineMicros / allowed).toFixed(1)}× the budget ` +
        `(${ms(budget.machineMicros - allowed)} over); at this cost ${cores} cores fully busy give at most about ${Math.round((cores * 1e6) / budget.machineMicros)}/s`
      : `the CPU would allow it (${Math.round((budget.machineMicros / allowed) * 100)}% of the budget); the other limits decide`;
  console.log(`CPU budget, ${budget.target}: ${cores} cores ÷ ${rate}/s = ${ms(allowed)} of machine CPU per ${budget.operation}; measured per ${budget.operation}: ${measured} (${busy}) → ${verdict}`);
};
