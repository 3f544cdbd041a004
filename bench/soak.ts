/**
 * `--soak N`: N allowed payouts across the users at the usual connections, one line per 30 s window (rate, p50,
 * p99, server CPU per payout). Does the rate hold as the tables grow, and does p99 stay bounded throughout?
 */
import { runLoad, type LoadResult, type Measured, type WindowStats } from './load.js';
import { windowLine } from './report.js';
import { payoutsAcrossUsers, type ScenarioContext } from './scenarios.js';

export interface SoakReport {
  result: LoadResult;
  windows: WindowStats[];
  firstRps: number;
  lastRps: number;
  lastVsFirst: number;
  maxP99: number;
  ok: boolean;
}

export async function soak(url: string, c: ScenarioContext, n: number, connections: number, m: Measured, windowMs = 30_000): Promise<SoakReport> {
  const windows: WindowStats[] = [];
  console.log(`\nsoak: ${n} payouts across ${c.wallets.length} users, ${connections} connections, a line per ${windowMs / 1000} s`);
  const result = await runLoad(
    { url, method: 'POST', path: '/v1/withdraws', connections, amount: n, next: payoutsAcrossUsers(c, 'soak') },
    m,
    {
      windowMs,
      onWindow: (w) => {
        windows.push(w);
        console.log(windowLine(w, 201));
      },
    },
  );
  // The last window is usually cut short by the end of the run: compare full windows when there are two.
  const full = windows.filter((w) => w.seconds >= (windowMs / 1000) * 0.95);
  const cmp = full.length >= 2 ? full : windows;
  const firstRps = cmp[0]?.rps ?? NaN;
  const lastRps = cmp[cmp.length - 1]?.rps ?? NaN;
  const maxP99 = Math.max(...windows.map((w) => w.p99));
  const lastVsFirst = lastRps / firstRps;
  const allowed = (result.statuses[201] ?? 0) / result.completed;
  return {
    result,
    windows,
    firstRps,
    lastRps,
    lastVsFirst,
    maxP99,
    ok: lastVsFirst >= 0.8 && maxP99 <= 100 && allowed >= 0.99,
  };
}
