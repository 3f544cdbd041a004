/**
 * `--webhooks`: every payout user subscribed to the local receiver. After a payout load: did deliveries keep
 * pace (delivery rate during the load vs the payout rate; a payout makes three events on the allowed path:
 * requested, submitted, confirmed), how long after the load stopped until every payout's `payout.confirmed`
 * had arrived — with its requested and submitted events (the backlog empty) — and how long each payout took to
 * confirm (resolved_at − created_at).
 *
 * "Kept pace" compares what arrived during the load with what the load produced during it (events by their
 * `created_at`), not with three times the payouts: a payout's `payout.confirmed` only exists once the rail has
 * settled it, SANDBOX_CONFIRM_DELAY_MS and a job tick later, so the confirmations of the load's last seconds are
 * not due before it ends, however fast delivery is. With a 10 s load and a 2 s delay the raw ratio tops out near
 * (1 + 1 + 8/10)× = 2.8×; both figures are printed. Pace is kept when ≥ 95 % of them arrived before the load
 * ended and the delivery lag's p99 is at most 1 s (the share alone would let a steady lag pass a longer load).
 */
import type { LoadResult } from './load.js';
import { sleep } from './load.js';

export interface ReceiverStats {
  deliveries: number;
  distinct: number;
  byType: Record<string, number>;
  firstAt: number;
  lastAt: number;
  confirm: { count: number; p50: number | null; p99: number | null; max: number | null };
}

export async function receiverStats(url: string): Promise<ReceiverStats> {
  const res = await fetch(`${url}/stats`);
  return (await res.json()) as ReceiverStats;
}

interface WindowStats {
  produced: number;
  deliveredBy: number;
  lag: { p50: number | null; p99: number | null; max: number | null };
}

async function receiverWindow(url: string, from: number, to: number): Promise<WindowStats> {
  const res = await fetch(`${url}/window?from=${from}&to=${to}`);
  return (await res.json()) as WindowStats;
}

export async function resetReceiver(url: string): Promise<void> {
  await (await fetch(`${url}/reset`, { method: 'POST' })).arrayBuffer();
}

const payoutEvents = (s: ReceiverStats) =>
  Object.entries(s.byType)
    .filter(([t]) => t.startsWith('payout.'))
    .reduce((n, [, c]) => n + c, 0);

/**
 * Every payout's three events have arrived. "Kept pace" counts the events created during the load from what the
 * receiver got, so it is only a fair count once nothing is missing: an event whose first delivery failed would
 * otherwise drop out of both sides of the ratio.
 */
const allArrived = (s: ReceiverStats, payouts: number) =>
  ['payout.requested', 'payout.submitted', 'payout.confirmed'].every((t) => (s.byType[t] ?? 0) >= payouts);

export interface DeliveryReport {
  payouts: number;
  payoutRate: number;
  deliveredDuringLoad: number;
  deliveryRate: number;
  paceRatio: number;
  /** Payout events created during the load, how many of them arrived before it ended, and their delivery lag. */
  window: WindowStats;
  keptPace: number;
  drainMs: number | null;
  byType: Record<string, number>;
  duplicates: number;
  confirmLimitMs: number;
  confirm: ReceiverStats['confirm'];
  confirmedAll: boolean;
  /** Every payout's requested, submitted and confirmed event arrived (within the wait). */
  allArrived: boolean;
  ok: boolean;
}

/**
 * Call with the receiver reset before the load started and `atLoadEnd` read as soon as the load finished.
 * Waits (at most `maxWaitMs`) until all three events have arrived for every payout the load created and
 * nothing new came for 1.5 s.
 */
export async function measureDeliveries(
  receiverUrl: string,
  load: LoadResult,
  atLoadEnd: ReceiverStats,
  confirmDelayMs: number,
  maxWaitMs = 60_000,
): Promise<DeliveryReport> {
  // The answered payouts. Up to one per connection more were in flight when the load stopped and exist too;
  // they were created within milliseconds of the last answered one, so the 1.5 s of quiet below covers them.
  const payouts = load.statuses[201] ?? 0;
  const seconds = (load.finishedAt - load.startedAt) / 1000;
  let s = atLoadEnd;
  let drainMs: number | null = null;
  let lastDistinct = -1;
  let stableSince = Date.now();
  for (;;) {
    s = await receiverStats(receiverUrl);
    if (s.distinct !== lastDistinct) {
      lastDistinct = s.distinct;
      stableSince = Date.now();
    }
    if (allArrived(s, payouts) && Date.now() - stableSince >= 1500) {
      // The backlog emptied when the last delivery arrived, not when we noticed.
      drainMs = Math.max(0, s.lastAt - load.finishedAt);
      break;
    }
    if (Date.now() - load.finishedAt > maxWaitMs) break;
    await sleep(250);
  }
  const deliveredDuringLoad = payoutEvents(atLoadEnd);
  const w = await receiverWindow(receiverUrl, load.startedAt, load.finishedAt);
  const confirmLimitMs = confirmDelayMs + 2000;
  const report: DeliveryReport = {
    payouts,
    payoutRate: payouts / seconds,
    deliveredDuringLoad,
    deliveryRate: deliveredDuringLoad / seconds,
    paceRatio: payouts ? deliveredDuringLoad / payouts : 0,
    window: w,
    keptPace: w.produced ? w.deliveredBy / w.produced : 0,
    drainMs,
    byType: s.byType,
    duplicates: s.byType['(duplicate)'] ?? 0,
    confirmLimitMs,
    confirm: s.confirm,
    confirmedAll: s.confirm.count >= payouts,
    allArrived: allArrived(s, payouts),
    ok: false,
  };
  report.ok =
    report.allArrived && report.keptPace >= 0.95 && (w.lag.p99 ?? Infinity) <= 1000 && drainMs !== null && drainMs <= 10_000 && report.confirmedAll && (s.confirm.max ?? Infinity) <= confirmLimitMs;
  return report;
}

export function deliveryLines(r: DeliveryReport): string[] {
  const types = Object.entries(r.byType)
    .map(([t, n]) => `${t}×${n}`)
    .join(' ');
  return [
    `  payouts ${r.payouts} at ${r.payoutRate.toFixed(0)}/s; payout events delivered during the load ${r.deliveredDuringLoad} = ${r.deliveryRate.toFixed(0)}/s = ${r.paceRatio.toFixed(2)}× the payout rate (the issue's 3×; see "kept pace" below)`,
    `  events the load created during it ${r.window.produced} (${(r.window.produced / Math.max(r.payouts, 1)).toFixed(2)} per payout), ` +
      `${r.window.deliveredBy} of them delivered before it ended = ${(r.keptPace * 100).toFixed(1)} % (kept pace: ≥ 95 % and lag p99 ≤ 1 s); ` +
      `creation → delivery p50 ${r.window.lag.p50} ms, p99 ${r.window.lag.p99} ms, max ${r.window.lag.max} ms` +
      (r.allArrived ? '' : '; NOT every payout event arrived within the wait, so this share is not a fair count'),
    `  backlog empty ${r.drainMs === null ? 'NOT within the wait' : `${(r.drainMs / 1000).toFixed(1)} s`} after the load stopped (target ≤ 10 s)`,
    `  confirmed ${r.confirm.count}/${r.payouts}; creation → confirmation p50 ${r.confirm.p50} ms, p99 ${r.confirm.p99} ms, max ${r.confirm.max} ms (target ≤ ${r.confirmLimitMs} ms)`,
    `  received by type: ${types}`,
    `  ${r.ok ? 'meets' : 'MISSES'} the webhook targets`,
  ];
}
