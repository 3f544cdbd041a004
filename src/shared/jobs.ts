import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';

/**
 * One pass of a background worker: it works at most one bounded batch of due items and says whether it filled
 * the batch (so more work is probably due now). Every pass finds its work through an index on a due time and
 * claims each item atomically (D29), so any number of nodes may run the same worker on one database.
 */
export type WorkerPass = () => Promise<{ more: boolean }>;

/** How many full batches one run may work before it yields the timer to the next run. */
const MAX_PASSES_PER_RUN = 50;
/** Times asked for by `wakeIn` are kept to this granularity, so a burst of items due together costs one entry. */
const WAKE_GRANULARITY_MS = 10;
/** A job's first run after `start()` comes no later than this, whatever its interval. */
export const FIRST_RUN_MAX_MS = 60_000;
/** At most this many distinct times are kept; later ones are left to the interval (the earliest always stay). */
const MAX_WAKES = 1_000;

/**
 * A background worker on one node. It runs a pass every `intervalMs`, and keeps running passes while they come
 * back full (yielding to the event loop between them), so throughput follows the work and the interval is only
 * the longest an item waits. `wake()` starts a run now (a payout just wrote deliveries, say). Runs never
 * overlap on one node; across nodes, the items' own claims keep them apart. Tests call `runOnce()` directly.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | null = null;
  /** When the pending timer fires (ms since the epoch). */
  private timerAt = Infinity;
  /**
   * Every time asked for by `wakeIn` that no run has covered yet, ascending. Keeping only the earliest lost the
   * rest: under a payout load each submission asks for its own settlement time, and all but the first waited a
   * whole interval for the run after (confirmations a second late).
   */
  private readonly wakes: number[] = [];
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private closing = false;

  constructor(
    readonly name: string,
    private readonly intervalMs: number,
    private readonly pass: WorkerPass,
    private readonly log: FastifyBaseLogger,
    /** Told of a pass that failed (for /metrics), after it is logged. */
    private readonly onFailure?: (job: string, err: unknown) => void,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // An hourly job's first run comes within a minute of the start, not an hour: a node restarted more often than
    // hourly (deploys, a crash loop) would otherwise never prune, and retention would not hold.
    this.schedule(Math.min(this.intervalMs, FIRST_RUN_MAX_MS));
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    // +1: a timer can fire a millisecond early by the wall clock, and a run before the time asked for would not
    // cover it (nor forget it).
    const wanted = (this.wakes[0] ?? Infinity) - Date.now() + 1;
    const delay = Math.max(0, Math.min(ms, wanted));
    this.timerAt = Date.now() + delay;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      void this.runOnce().finally(() => this.schedule(this.intervalMs));
    }, delay);
    this.timer.unref();
  }

  /**
   * Asks for a run in `ms` (an item falls due then: a transfer the rail settles), so due work waits neither for
   * the next interval nor for a poll. Each time asked for gets a run unless a run starts at or after it anyway.
   * No-op when the worker is not started.
   */
  wakeIn(ms: number): void {
    if (this.stopped) return;
    const at = Math.ceil((Date.now() + Math.max(0, ms)) / WAKE_GRANULARITY_MS) * WAKE_GRANULARITY_MS;
    this.remember(at);
    if (!this.running && at < this.timerAt) this.schedule(Infinity);
  }

  private remember(at: number): void {
    const w = this.wakes;
    let lo = 0;
    let hi = w.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (w[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    if (w[lo] === at) return;
    if (w.length >= MAX_WAKES) {
      if (lo >= w.length) return;
      w.pop();
    }
    w.splice(lo, 0, at);
  }

  /** A run starting now covers every item due by now: the times asked for up to now need no run of their own. */
  private forgetWakesUpTo(now: number): void {
    let n = 0;
    while (n < this.wakes.length && this.wakes[n]! <= now) n++;
    if (n > 0) this.wakes.splice(0, n);
  }

  /** Asks for a run soon; a run in progress does one more pass first. No-op when the worker is not started. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /**
   * Runs passes now until one comes back not full (or joins the run in progress). Errors are logged, not
   * thrown: one failing pass must not stop the worker.
   */
  async runOnce(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.forgetWakesUpTo(Date.now());
    this.running = (async () => {
      try {
        for (let i = 0; i < MAX_PASSES_PER_RUN && !(this.closing && i > 0); i++) {
          this.again = false;
          const { more } = await this.pass();
          if (!more && !this.again) break;
          await yieldToLoop();
        }
      } catch (err) {
        this.log.error({ err, job: this.name }, 'background job failed');
        this.onFailure?.(this.name, err);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) await this.running;
  }
}

/** Adapts work that has no batches (runs once per tick). */
export const singlePass =
  (work: () => Promise<unknown>): WorkerPass =>
  async () => {
    await work();
    return { more: false };
  };

/** Adapts a pass that returns how many items it worked out of a batch of `limit`. */
export const batchPass =
  (limit: number, work: (limit: number) => Promise<number>): WorkerPass =>
  async () => ({ more: (await work(limit)) >= limit });

/**
 * Runs `work` while renewing its lease every `everyMs` (D29: a slow item must not let a second node take it).
 * `renew` extends the lease and returns false when the lease is no longer ours; the work goes on (it cannot be
 * cut in half safely) but its result must then be written conditionally on the lease, which will fail.
 */
export async function withLeaseRenewal<T>(everyMs: number, renew: () => Promise<boolean>, work: () => Promise<T>): Promise<T> {
  let lost = false;
  const timer = setInterval(() => {
    if (lost) return;
    renew().then(
      (ok) => {
        if (!ok) lost = true;
      },
      () => {},
    );
  }, everyMs);
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** Drives every pass of a bounded delete until a batch comes back short (retention pruning). */
export async function pruneInBatches(limit: number, deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_PASSES_PER_RUN; i++) {
    const n = await deleteBatch(limit);
    total += n;
    if (n < limit) break;
    await yieldToLoop();
  }
  return total;
}

/** Runs `fn` over `items` with at most `parallel` at a time; one item's failure is logged by the caller's `fn`. */
export async function mapBounded<T>(items: readonly T[], parallel: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) await fn(items[i]!);
    }),
  );
}
