// Per-endpoint concurrency limits. The client only sees the ConcurrencyLimiter interface, so a
// cross-process limiter (e.g. PostgreSQL advisory locks or a slots table, for several workers)
// can replace the in-process semaphore without touching the call path.

export interface RunOptions {
  /**
   * Work that may wait (e.g. the evaluations of a finished episode, which nothing else waits
   * for): served only when no call without it waits for the same key. FIFO within each class.
   */
  background?: boolean;
}

export interface ConcurrencyLimiter {
  /**
   * Runs fn once fewer than `limit` calls with the same key are running (FIFO; background calls
   * after the others). A `signal` that aborts while waiting rejects with its reason and never runs fn.
   */
  run<T>(key: string, limit: number, fn: () => Promise<T>, signal?: AbortSignal, opts?: RunOptions): Promise<T>;
}

/** The same limiter with every call marked background (RunOptions.background). */
export function backgroundLimiter(l: ConcurrencyLimiter): ConcurrencyLimiter {
  return { run: (key, limit, fn, signal) => l.run(key, limit, fn, signal, { background: true }) };
}

interface Slot {
  active: number;
  waiting: { resolve: () => void; reject: (e: unknown) => void; signal?: AbortSignal; onAbort?: () => void; background: boolean }[];
}

/** A semaphore per key, in this process only. The limit of a key is the one passed by the latest call. */
export function createInProcessLimiter(): ConcurrencyLimiter & { active(key: string): number; waiting(key: string): number } {
  const slots = new Map<string, Slot>();
  const limits = new Map<string, number>();

  function release(key: string) {
    const slot = slots.get(key)!;
    slot.active--;
    drain(key);
    if (slot.active === 0 && slot.waiting.length === 0) slots.delete(key);
  }

  function drain(key: string) {
    const slot = slots.get(key);
    if (!slot) return;
    const limit = limits.get(key) ?? 1;
    while (slot.active < limit && slot.waiting.length) {
      const next = slot.waiting.shift()!;
      if (next.onAbort) next.signal?.removeEventListener("abort", next.onAbort);
      slot.active++;
      next.resolve();
    }
  }

  return {
    async run(key, limit, fn, signal, opts) {
      signal?.throwIfAborted();
      const background = !!opts?.background;
      limits.set(key, Math.max(1, Math.floor(limit)));
      let slot = slots.get(key);
      if (!slot) slots.set(key, (slot = { active: 0, waiting: [] }));
      if (slot.active < limits.get(key)!) {
        slot.active++;
      } else {
        await new Promise<void>((resolve, reject) => {
          const w: Slot["waiting"][number] = { resolve, reject, signal, background };
          if (signal) {
            w.onAbort = () => {
              const i = slot!.waiting.indexOf(w);
              if (i >= 0) slot!.waiting.splice(i, 1);
              reject(signal.reason);
            };
            signal.addEventListener("abort", w.onAbort, { once: true });
          }
          // Background waiters queue after every other one.
          const at = background ? slot!.waiting.length : slot!.waiting.findIndex((x) => x.background);
          slot!.waiting.splice(at === -1 ? slot!.waiting.length : at, 0, w);
        });
      }
      try {
        return await fn();
      } finally {
        release(key);
      }
    },
    active: (key) => slots.get(key)?.active ?? 0,
    waiting: (key) => slots.get(key)?.waiting.length ?? 0,
  };
}

// One limiter per process (kept on globalThis so Next's dev-mode reloads share it).
const g = globalThis as unknown as { __toolemuLlmLimiter?: ConcurrencyLimiter };

export function processLimiter(): ConcurrencyLimiter {
  return (g.__toolemuLlmLimiter ??= createInProcessLimiter());
}
