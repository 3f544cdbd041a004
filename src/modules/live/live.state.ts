import { createHash } from 'node:crypto';
import type { Executor } from '../../db/database.js';

/** What the dashboard keeps live, one fingerprint per topic: a topic whose fingerprint changed is fetched again. */
export interface LiveState {
  /** The pending approvals (ids and status). */
  approvals: string;
  /** The 20 newest payouts (id, status, last change). */
  payouts: string;
  /** The newest entry of the wallet's history (deposits, payouts that reached the bank). */
  money: string;
  /** The emergency stop. */
  pause: string;
  /** The owner's limits (thresholds and whitelist), however they were changed. */
  limits: string;
}

export const RECENT_PAYOUTS = 20;

const digest = (rows: unknown): string => createHash('sha256').update(JSON.stringify(rows)).digest('base64url').slice(0, 12);

/**
 * Five small reads through the user's indexes (approvals by user and status, payouts and the wallet history by
 * user and id, the pause and the limits by user). Cheap enough to run for every open dashboard on every slow poll.
 */
export async function liveState(db: Executor, userId: string): Promise<LiveState> {
  const [approvals, payouts, money, pause, limits] = await Promise.all([
    db.selectFrom('approvals').select(['id', 'status']).where('user_id', '=', userId).where('status', '=', 'pending').orderBy('id').execute(),
    db.selectFrom('payouts').select(['id', 'status', 'updated_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(RECENT_PAYOUTS).execute(),
    db.selectFrom('wallet_transactions').select('id').where('user_id', '=', userId).orderBy('id', 'desc').limit(1).execute(),
    db.selectFrom('payout_pauses').select('paused_at').where('user_id', '=', userId).execute(),
    db.selectFrom('thresholds').selectAll().where('user_id', '=', userId).execute(), // the values: a clock may repeat a time
  ]);
  return { approvals: digest(approvals), payouts: digest(payouts), money: digest(money), pause: digest(pause), limits: digest(limits) };
}
