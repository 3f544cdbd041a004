/**
 * `--idle-wallets N`: with N onboarded wallets and no traffic, what does the service cost and does its event
 * loop stay responsive? CPU % from /proc over the window (100 % = one core) and, since the service is not ours
 * to instrument, its event-loop delay seen from outside: a tiny GET /healthz every 100 ms over a kept-alive
 * connection, timed. The same probe against the no-op server runs alongside as the control.
 */
import http from 'node:http';
import { percentile, sleep } from './load.js';
import { machineBusyMs, requireCpuMs } from './proc-cpu.js';

export interface ProbeStats {
  probes: number;
  p50: number;
  p99: number;
  max: number;
  over50: number;
  failed: number;
}

export interface IdleReport {
  seconds: number;
  cpuPct: number;
  /** Everything else busy on the machine meanwhile (the prober included), 100 % = one core. */
  otherCpuPct: number;
  maxSlicePct: number;
  slices: number[];
  service: ProbeStats;
  control: ProbeStats;
  ok: boolean;
}

function prober(url: string): { fire(): void; stats(): ProbeStats; close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const lat: number[] = [];
  let failed = 0;
  return {
    fire() {
      const t0 = performance.now();
      const req = http.get(url, { agent, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? lat.push(performance.now() - t0) : failed++));
      });
      req.on('error', () => failed++);
      req.on('timeout', () => req.destroy(new Error('timeout')));
    },
    stats() {
      const s = Float64Array.from(lat).sort();
      return { probes: s.length, p50: percentile(s, 0.5), p99: percentile(s, 0.99), max: s[s.length - 1] ?? NaN, over50: s.filter((x) => x > 50).length, failed };
    },
    close: () => agent.destroy(),
  };
}

export async function idle(serviceUrl: string, noopUrl: string, pid: number, seconds: number): Promise<IdleReport> {
  const service = prober(`${serviceUrl}/healthz`);
  const control = prober(`${noopUrl}/`);
  const slices: number[] = [];
  const t0 = Date.now();
  const cpu0 = requireCpuMs(pid);
  const machine0 = machineBusyMs();
  let sliceAt = t0;
  let sliceCpu = cpu0;
  const probeTimer = setInterval(() => {
    service.fire();
    control.fire();
  }, 100);
  const sliceTimer = setInterval(() => {
    const now = Date.now();
    const cpu = requireCpuMs(pid);
    slices.push(((cpu - sliceCpu) / (now - sliceAt)) * 100);
    sliceAt = now;
    sliceCpu = cpu;
  }, 5000);
  await sleep(seconds * 1000);
  clearInterval(probeTimer);
  clearInterval(sliceTimer);
  const wall = Date.now() - t0;
  const serviceMs = requireCpuMs(pid) - cpu0;
  const cpuPct = (serviceMs / wall) * 100;
  const otherCpuPct = ((machineBusyMs() - machine0 - serviceMs) / wall) * 100;
  await sleep(500); // the last probes answer
  service.close();
  control.close();
  const s = service.stats();
  return {
    seconds,
    cpuPct,
    otherCpuPct,
    maxSlicePct: Math.max(...slices),
    slices,
    service: s,
    control: control.stats(),
    ok: cpuPct < 5 && s.max <= 50 && s.failed === 0,
  };
}

export function idleLines(r: IdleReport): string[] {
  const p = (x: ProbeStats) => `p50 ${x.p50.toFixed(2)} ms, p99 ${x.p99.toFixed(2)} ms, max ${x.max.toFixed(2)} ms, ${x.over50} over 50 ms, ${x.failed} failed, ${x.probes} probes`;
  return [
    `  service CPU ${r.cpuPct.toFixed(2)} % of a core over ${r.seconds} s (5 s slices: ${r.slices.map((x) => x.toFixed(1)).join(' ')}; target < 5 %); the rest of the machine meanwhile ${r.otherCpuPct.toFixed(0)} %`,
    `  GET /healthz every 100 ms: ${p(r.service)} (target: none over 50 ms)`,
    `  control, the no-op server: ${p(r.control)}`,
    `  ${r.ok ? 'meets' : 'MISSES'} the idle targets`,
  ];
}
