/**
 * One load run with autocannon (pinned in devDependencies) from this process, which is neither server: a fixed
 * number of connections for a fixed time (or a fixed number of requests), each request built by the scenario
 * (its own idempotency key, a token rotated across users). Latencies are taken per response at sub-millisecond
 * precision; the server's CPU time is read from /proc before and after.
 */
import autocannon from 'autocannon';
import { machineBusyMs, postgresBackendsCpuMs, requireCpuMs, processCpuMs } from './proc-cpu.js';

export interface RequestParts {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadSpec {
  url: string; // base, e.g. http://127.0.0.1:1234
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Builds each request (per-request idempotency keys, rotating tokens); omitted = the same request each time. */
  next?: () => RequestParts;
  connections: number;
  durationS?: number;
  amount?: number;
}

export interface Measured {
  serverPid: number;
  /** PostgreSQL database whose backends' CPU is added as `dbCpuMs`. */
  pgDatabase?: string;
}

export interface WindowStats {
  index: number;
  startedS: number;
  seconds: number;
  completed: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  serverCpuMs: number;
  /** Busy CPU of everything but the server and this process during the window, 100 % = one core. */
  otherCpuPct: number;
}

export interface LoadResult extends WindowStats {
  errors: number;
  timeouts: number;
  /** The server's CPU time reading (ms since it started) when the load began. */
  serverCpuAtStart: number;
  dbCpuMs: number | null;
  dbBackendsChanged: boolean;
  loadgenCpuPct: number;
  /**
   * Busy CPU of everything else on the machine (100 % = one core): neither the server, nor its PostgreSQL
   * backends, nor this load generator. Anything but a few % means the figures share the cores with others.
   */
  otherCpuPct: number;
  startedAt: number;
  finishedAt: number;
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

class Window {
  lat: number[] = [];
  statuses: Record<string, number> = {};
  private readonly machineAtStart = machineBusyMs();
  private readonly genAtStart = process.cpuUsage();
  constructor(
    readonly index: number,
    readonly startedAt: number,
    readonly cpuAtStart: number,
  ) {}
  add(status: number, ms: number): void {
    this.lat.push(ms);
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
  }
  close(runStart: number, now: number, cpuNow: number): WindowStats {
    const sorted = Float64Array.from(this.lat).sort();
    const seconds = (now - this.startedAt) / 1000;
    const gen = process.cpuUsage(this.genAtStart);
    const otherMs = machineBusyMs() - this.machineAtStart - (cpuNow - this.cpuAtStart) - (gen.user + gen.system) / 1000;
    return {
      index: this.index,
      startedS: (this.startedAt - runStart) / 1000,
      seconds,
      completed: sorted.length,
      rps: sorted.length / seconds,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.length ? sorted[sorted.length - 1]! : NaN,
      statuses: this.statuses,
      serverCpuMs: cpuNow - this.cpuAtStart,
      otherCpuPct: (Math.max(0, otherMs) / (now - this.startedAt)) * 100,
    };
  }
}

/**
 * Runs the load. With `windowMs`, `onWindow` gets the stats of each window as it closes (the soak's lines);
 * the result always covers the whole run.
 */
export async function runLoad(
  spec: LoadSpec,
  m: Measured,
  opts: { windowMs?: number; onWindow?: (w: WindowStats) => void } = {},
): Promise<LoadResult> {
  const headers = { ...spec.headers };
  const next = spec.next;
  const requests = next
    ? [
        {
          setupRequest: (req: RequestParts) => {
            const parts = next();
            return { ...req, ...parts, headers: { ...headers, ...parts.headers } };
          },
        },
      ]
    : undefined;

  const db0 = m.pgDatabase ? postgresBackendsCpuMs(m.pgDatabase) : null;
  const machine0 = machineBusyMs();
  const cpu0 = requireCpuMs(m.serverPid);
  const gen0 = process.cpuUsage();
  const start = Date.now();
  const all = new Window(0, start, cpu0);
  let win = new Window(0, start, cpu0);
  let timer: NodeJS.Timeout | null = null;
  if (opts.windowMs && opts.onWindow) {
    const onWindow = opts.onWindow;
    timer = setInterval(() => {
      const now = Date.now();
      const cpu = requireCpuMs(m.serverPid);
      onWindow(win.close(start, now, cpu));
      win = new Window(win.index + 1, now, cpu);
    }, opts.windowMs);
  }

  const instance = autocannon({
    url: spec.url + spec.path,
    method: spec.method as 'GET',
    headers,
    body: spec.body,
    requests: requests as never,
    connections: spec.connections,
    duration: spec.durationS ?? 10,
    amount: spec.amount,
    timeout: 30,
  });
  let errors = 0;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    all.add(status, ms);
    win.add(status, ms);
  });
  instance.on('reqError', () => {
    errors++;
  });
  const result = (await instance) as unknown as { timeouts: number; start: Date; finish: Date };
  if (timer) clearInterval(timer);
  const end = Date.now();
  const cpu1 = requireCpuMs(m.serverPid);
  const gen = process.cpuUsage(gen0);
  if (opts.windowMs && opts.onWindow && win.lat.length > 0) opts.onWindow(win.close(start, end, cpu1));
  const db1 = m.pgDatabase ? postgresBackendsCpuMs(m.pgDatabase) : null;
  const machine = machineBusyMs() - machine0;
  const whole = all.close(start, end, cpu1);
  const genMs = (gen.user + gen.system) / 1000;
  const dbMs = db0 && db1 ? db1.ms - db0.ms : 0;
  return {
    ...whole,
    errors,
    serverCpuAtStart: cpu0,
    timeouts: result.timeouts ?? 0,
    dbCpuMs: db0 && db1 ? db1.ms - db0.ms : null,
    dbBackendsChanged: !!db0 && !!db1 && db0.pids.join() !== db1.pids.join(),
    loadgenCpuPct: (genMs / (end - start)) * 100,
    otherCpuPct: (Math.max(0, machine - whole.serverCpuMs - genMs - dbMs) / (end - start)) * 100,
    startedAt: start,
    finishedAt: end,
  };
}

/**
 * Waits until the server is quiet again (its follow-up work done: settlement, confirmations, deliveries):
 * at least `minMs`, then until one second passes with under 10 % of a core (idle background jobs stay under
 * that), at most `maxMs`. Returns its CPU time at that moment.
 */
export async function untilQuiet(pid: number, minMs: number, maxMs = 120_000): Promise<{ cpuMs: number; waitedMs: number }> {
  const t0 = Date.now();
  await sleep(minMs);
  let prev = requireCpuMs(pid);
  for (;;) {
    await sleep(1000);
    const now = requireCpuMs(pid);
    if (now - prev < 100 || Date.now() - t0 > maxMs) return { cpuMs: now, waitedMs: Date.now() - t0 };
    prev = now;
  }
}

/**
 * Other work on the machine (another project's tests, say) takes cores from the servers and the load
 * generator alike. Waits up to `maxMs` for a second in which the machine is under `maxPct` % of one core busy,
 * and says so when it is not; each scenario's `otherCpuPct` then shows what shared the cores during it.
 */
export async function untilMachineQuiet(maxPct = 25, maxMs = 60_000): Promise<void> {
  const t0 = Date.now();
  let warned = false;
  for (;;) {
    const a = machineBusyMs();
    await sleep(1000);
    const pct = (machineBusyMs() - a) / 10;
    if (pct < maxPct) return;
    if (!warned) {
      process.stdout.write(`\n  (the machine is busy with other work, ${pct.toFixed(0)} % of a core: waiting up to ${maxMs / 1000} s) `);
      warned = true;
    }
    if (Date.now() - t0 > maxMs) {
      process.stdout.write(`still ${pct.toFixed(0)} % busy: measuring anyway, see "other CPU" `);
      return;
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export { processCpuMs };
