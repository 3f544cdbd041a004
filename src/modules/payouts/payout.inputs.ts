import type { AppContext } from '../../context.js';
import { compiledByShape } from '../../db/compiled.js';
import type { Executor } from '../../db/database.js';
import type { PolicyThresholds } from '../policy/policy.js';
import { thresholdsFromRow } from '../thresholds/thresholds.service.js';
import { keySubject, userSubject, type Usage } from './usage.js';

/** What a payout's decision reads of its user besides the wallet. */
export interface DecisionInputs {
  /** D36: the emergency stop. */
  paused: boolean;
  /** D15: the owner's thresholds, or the configured defaults. */
  thresholds: PolicyThresholds;
  /** D16: committed centavos this day and month, the user's. */
  usage: Usage;
  /** D31: the same for the asking key, when it has limits of its own. */
  keyUsage: Usage | null;
}

interface Row {
  paused_at: string | null;
  has_thresholds: string | null;
  per_tx_limit: number;
  daily_limit: number;
  monthly_limit: number;
  require_approval_above: number;
  whitelist: string;
  user_day: number | null;
  user_month: number | null;
  key_day: number | null;
  key_month: number | null;
}

/**
 * The pause, the thresholds and the usage counters in one statement (a round trip each on PostgreSQL, D42): the
 * user's wallet row joined to its thresholds (the thresholds module writes them), with the pause and each counter
 * as a lookup by primary key. Never merged into the lock's statement: a `select … for update` that waited for the
 * lock reads the other tables as they were when it started, so it would miss a pause committed while it waited.
 */
const inputsOf = compiledByShape<{ key: boolean }, { user_id: string; user: string; key: string; day: string; month: string }, Row>((db, a, shape) =>
  db
    .selectFrom('wallets as w')
    .leftJoin('thresholds as t', 't.user_id', 'w.user_id')
    .select(['t.user_id as has_thresholds', 't.per_tx_limit', 't.daily_limit', 't.monthly_limit', 't.require_approval_above', 't.whitelist'])
    .select((eb) => {
      const used = (subject: string, period: string) =>
        eb.selectFrom('payout_usage').select('amount').where('subject', '=', subject).where('period', '=', period);
      return [
        eb.selectFrom('payout_pauses').select('paused_at').where('user_id', '=', a.user_id).as('paused_at'),
        used(a.user, a.day).as('user_day'),
        used(a.user, a.month).as('user_month'),
        ...(shape.key ? [used(a.key, a.day).as('key_day'), used(a.key, a.month).as('key_month')] : []),
      ];
    })
    .where('w.user_id', '=', a.user_id),
);

/**
 * What the policy decides a payout on besides the wallet, read in one statement. Inside the payout's transaction it
 * comes after the per-user lock, so it sees every pause, threshold change and usage committed before the lock was
 * granted. `keyId`: the asking key, when it has limits of its own. Null when the user has no wallet.
 */
export async function readDecisionInputs(
  ctx: AppContext,
  db: Executor,
  userId: string,
  keyId: string | null,
  period: { day: string; month: string },
): Promise<DecisionInputs | null> {
  const args = { user_id: userId, user: userSubject(userId), key: keyId ? keySubject(keyId) : '', day: period.day, month: period.month };
  const row = await inputsOf({ key: keyId !== null }).first(db, args);
  if (!row) return null;
  return {
    paused: row.paused_at !== null,
    thresholds: thresholdsFromRow(ctx, row.has_thresholds === null ? undefined : row),
    usage: { day: Number(row.user_day ?? 0), month: Number(row.user_month ?? 0) },
    keyUsage: keyId ? { day: Number(row.key_day ?? 0), month: Number(row.key_month ?? 0) } : null,
  };
}
