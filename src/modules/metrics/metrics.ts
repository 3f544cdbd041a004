import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../../db/database.js';

/** What an operator can watch (Prometheus, `GET /metrics`): one registry per app, so tests' apps never mix. */
export interface Metrics {
  readonly registry: Registry;
  /** A request answered: its route pattern (never its ids), method, status and time. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** A payout request decided by the policy (D15). */
  payoutDecided(decision: 'allow' | 'require_approval' | 'deny'): void;
  /** A payout reached a final status. */
  payoutFinished(status: string): void;
  /** A database wait reached its bound, or the database could not serve (D42); `kind` from `storeFailureKind`. */
  storeUnavailable(kind: string): void;
  /** A background job's pass failed; `kind` as storeUnavailable's when the database could not serve it, else `error`. */
  jobFailed(job: string, kind: string): void;
  /** A request refused at the door, before any work: the node at capacity, or shutting down. */
  shed(reason: 'capacity' | 'closing'): void;
}

/** Read at each scrape: a job's oldest due item, and what the webhooks owe. */
export interface Probes {
  /** Per job: when its oldest item fell or falls due (ISO 8601), or null when it has none. */
  oldestDue: Record<string, () => Promise<string | null>>;
  /** Webhook deliveries due and not yet sent. */
  deliveryBacklog: () => Promise<number>;
  /** The database pools (PostgreSQL): requests' and jobs'. */
  pools: Record<string, (() => PoolStats) | undefined>;
  now: () => Date;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const requests = new Counter({ name: 'http_requests_total', help: 'Requests answered, by route, method and status', labelNames: ['route', 'method', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by route, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const decided = new Counter({ name: 'payouts_decided_total', help: 'Payout requests by policy decision', labelNames: ['decision'], registers: [registry] });
  const finished = new Counter({ name: 'payouts_finished_total', help: 'Payouts that reached a final status', labelNames: ['status'], registers: [registry] });
  const unavailable = new Counter({
    name: 'store_unavailable_total',
    help: 'Requests the database could not serve: a bound reached (statement, lock, idle in transaction, checkout), a full queue, a lost connection',
    labelNames: ['kind'],
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'job_failures_total',
    help: "Background job passes that failed, by job and by what the database said (its kind, as store_unavailable_total's) or 'error'",
    labelNames: ['job', 'kind'],
    registers: [registry],
  });
  const shed = new Counter({
    name: 'requests_shed_total',
    help: 'Requests refused at the door with 503 before any work: the node at MAX_REQUESTS_IN_FLIGHT (capacity), or shutting down (closing)',
    labelNames: ['reason'],
    registers: [registry],
  });
  return {
    registry,
    request: (route, method, status, seconds) => {
      const labels = { route, method, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    payoutDecided: (decision) => decided.inc({ decision }),
    payoutFinished: (status) => finished.inc({ status }),
    storeUnavailable: (kind) => unavailable.inc({ kind }),
    jobFailed: (job, kind) => jobFailures.inc({ job, kind }),
    shed: (reason) => shed.inc({ reason }),
  };
}

/**
 * A probe's answer, or undefined when the store could not give it. D42: the scrape must answer while the database
 * cannot (a failover, a bound reached): that is when the 503 counters and the pools matter most. A gauge whose
 * probe failed reads NaN for that scrape; the probes run side by side, so a scrape waits for one bound at most.
 */
async function unlessFailed<T>(probe: () => Promise<T>): Promise<T | undefined> {
  try {
    return await probe();
  } catch {
    return undefined;
  }
}

/** Gauges read from the store and the pools at each scrape. */
export function registerProbes(metrics: Metrics, probes: Probes): void {
  const registers = [metrics.registry];
  new Gauge({
    name: 'job_lag_seconds',
    help: "How long each background job's oldest due item has waited (0 when nothing is overdue)",
    labelNames: ['job'],
    registers,
    async collect() {
      const now = probes.now().getTime();
      await Promise.all(
        Object.entries(probes.oldestDue).map(async ([job, oldest]) => {
          const at = await unlessFailed(oldest);
          this.set({ job }, at === undefined ? NaN : at ? Math.max(0, (now - Date.parse(at)) / 1000) : 0);
        }),
      );
    },
  });
  new Gauge({
    name: 'webhook_delivery_backlog',
    help: 'Webhook deliveries due and not yet sent',
    registers,
    async collect() {
      this.set((await unlessFailed(probes.deliveryBacklog)) ?? NaN);
    },
  });
  const pool = (name: string, help: string, pick: (s: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers,
      collect() {
        for (const [p, stats] of Object.entries(probes.pools)) if (stats) this.set({ pool: p }, pick(stats()));
      },
    });
  pool('db_pool_connections_in_use', 'PostgreSQL connections checked out', (s) => s.total - s.idle);
  pool('db_pool_connections_total', 'PostgreSQL connections open', (s) => s.total);
  pool('db_pool_waiting', 'Callers waiting for a PostgreSQL connection', (s) => s.waiting);
}
