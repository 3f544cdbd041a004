/**
 * Was every payout of a load confirmed, and how long after it was created? Read back over the API (each
 * user's GET /v1/withdraws, paged) rather than from webhooks, so it holds whether or not deliveries kept up:
 * `resolved_at − created_at` of each attempt whose idempotency key the load made, both the service's clock.
 */
import { call, pool, type Wallet } from './setup.js';

export interface ConfirmationReport {
  /** How long after the load stopped the attempts were read: "not confirmed" means "not yet, by then". */
  readAfterMs: number;
  payouts: number;
  statuses: Record<string, number>;
  confirmed: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  limitMs: number;
  overLimit: number;
  ok: boolean;
}

interface Attempt {
  id: string;
  status: string;
  idempotency_key: string;
  created_at: string;
  resolved_at: string | null;
}

export async function checkConfirmations(
  base: string,
  wallets: Wallet[],
  keyPrefix: string,
  limitMs: number,
  loadFinishedAt: number,
): Promise<ConfirmationReport> {
  const readAfterMs = Date.now() - loadFinishedAt;
  const lists = await pool(wallets.length, 16, 'read back payouts', async (i) => {
    const mine: Attempt[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const r = await call(base, 'GET', `/v1/withdraws?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { auth: wallets[i]!.agent });
      if (r.status !== 200) throw new Error(`GET /v1/withdraws answered ${r.status}`);
      const rows = r.json.withdraws as Attempt[];
      mine.push(...rows.filter((a) => a.idempotency_key.startsWith(keyPrefix)));
      cursor = r.json.next_cursor as string | null;
      // Newest first (ids grow with time): past the first attempt this load did not make, all are older.
      if (!cursor || rows.some((a) => !a.idempotency_key.startsWith(keyPrefix))) break;
    }
    return mine;
  });
  const attempts = lists.flat();
  const statuses: Record<string, number> = {};
  const ms: number[] = [];
  for (const a of attempts) {
    statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    if (a.status === 'confirmed' && a.resolved_at) ms.push(Date.parse(a.resolved_at) - Date.parse(a.created_at));
  }
  ms.sort((a, b) => a - b);
  const pct = (p: number) => (ms.length ? ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]! : null);
  const overLimit = ms.filter((x) => x > limitMs).length;
  return {
    readAfterMs,
    payouts: attempts.length,
    statuses,
    confirmed: ms.length,
    p50: pct(0.5),
    p99: pct(0.99),
    max: ms.length ? ms[ms.length - 1]! : null,
    limitMs,
    overLimit,
    ok: attempts.length > 0 && ms.length === attempts.length && overLimit === 0,
  };
}

export function confirmationLine(r: ConfirmationReport): string {
  const st = Object.entries(r.statuses)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  return (
    `  read back ${r.payouts} payouts ${(r.readAfterMs / 1000).toFixed(0)} s after the load stopped (${st}): creation → confirmed p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms; ` +
    `${r.overLimit} over ${r.limitMs} ms, ${r.payouts - r.confirmed} not confirmed: ${r.ok ? 'meets' : 'MISSES'} the confirmation target`
  );
}
