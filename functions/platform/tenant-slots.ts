import { ApiError } from '../../core/errors.ts';

/**
 * A per-tenant bound on heavy requests (issue 29 §1): at most `concurrent` run at once for one tenant
 * in this process; the next wait their turn in arrival order (at most `waiting` of them), and beyond
 * that the answer is 429 `TENANT_BUSY`. Another tenant never waits for this one. Waiting holds a
 * connection, not the event loop.
 */
export interface TenantSlots {
  run<T>(tenantId: string, work: () => Promise<T>): Promise<T>;
  /** Requests running and waiting for a tenant (tests, metrics). */
  load(tenantId: string): { running: number; waiting: number };
}

export const createTenantSlots = (limits: { concurrent: number; waiting: number }): TenantSlots => {
  const tenants = new Map<string, { running: number; queue: (() => void)[] }>();
  const stateOf = (tenantId: string) => {
    let state = tenants.get(tenantId);
    if (!state) {
      state = { running: 0, queue: [] };
      tenants.set(tenantId, state);
    }
    return state;
  };
  const release = (tenantId: string) => {
    const state = tenants.get(tenantId)!;
    const next = state.queue.shift();
    if (next) return next(); // the slot passes straight to the next in line
    state.running -= 1;
    if (state.running === 0) tenants.delete(tenantId);
  };
  return {
    async run(tenantId, work) {
      const state = stateOf(tenantId);
      if (state.running < limits.concurrent) state.running += 1;
      else if (state.queue.length < limits.waiting) await new Promise<void>((resolve) => state.queue.push(resolve));
      else {
        throw new ApiError(
          429,
          `This tenant already has ${state.running + state.queue.length} heavy requests (batch submissions, bulk creates) in progress or waiting; retry when one has finished`,
          'TENANT_BUSY',
        );
      }
      try {
        return await work();
      } finally {
        release(tenantId);
      }
    },
    load(tenantId) {
      const state = tenants.get(tenantId);
      return { running: state?.running ?? 0, waiting: state?.queue.length ?? 0 };
    },
  };
};

export const HEAVY_REQUEST_LIMITS = { concurrent: 1, waiting: 8 };

const slotsBySettings = new WeakMap<object, TenantSlots>();

/**
 * The bound of heavy requests: batch submissions and bulk master-data creates share it, one at a time
 * per tenant, eight waiting; one count per settings object (per process, test app or edge isolate).
 */
const slotsFor = (settings: object): TenantSlots => {
  let slots = slotsBySettings.get(settings);
  if (!slots) slotsBySettings.set(settings, (slots = createTenantSlots(HEAVY_REQUEST_LIMITS)));
  return slots;
};

export const heavyRequest = <T>(settings: object, tenantId: string, work: () => Promise<T>): Promise<T> => slotsFor(settings).run(tenantId, work);

/** The tenant's heavy requests running and waiting (tests). */
export const heavyRequestLoad = (settings: object, tenantId: string) => slotsFor(settings).load(tenantId);
