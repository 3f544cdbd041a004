import type { AppContext } from '../../context.js';
import { compiledByShape } from '../../db/compiled.js';
import type { Executor } from '../../db/database.js';
import type { KeyControls } from '../keys/key-controls.js';
import { controlsOf } from '../keys/keys.service.js';
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
  /**
   * D12, D31, D44: the asking key as it is now, read with the rest: its controls, `'expired'`, or `'gone'` once the
   * owner deleted it (or revoked its OAuth app). Null for the owner's session. Under the per-user lock this is what
   * the owner's last answered revoke or edit left, not what the request's authentication saw before it.
   */
  key: KeyControls | 'expired' | 'gone' | null;
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
  key_live: string | null;
  key_scopes: string;
  key_allowlist: string;
  key_per_tx_limit: number;
  key_daily_limit: number;
  key_monthly_limit: number;
  key_expires_at: string | null;
}

/**
 * The pause, the thresholds and the usage counters in one statement (a round trip each on PostgreSQL, D42): the
 * user's wallet row joined to its thresholds (the thresholds module writes them), with the pause and each counter
 * as a lookup by primary key, and for an agent its key as it is now (joined by primary key). Never merged into the lock's statement: a `select … for update` that waited for the
 * lock reads the other tables as they were when it started, so it would miss a pause committed while it waited.
 */
const inputsOf = compiledByShape<{ key: boolean }, { user_id: string; user: string; key: string; key_id: string; day: string; month: string }, Row>((db, a, shape) => {
  const q = db
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
    .where('w.user_id', '=', a.user_id);
  if (!shape.key) return q;
  // The asking key by its primary key, live only: a deleted key joins nothing.
  return q
    .leftJoin('api_keys as k', (join) =>
      join.on((eb) => eb.and([eb('k.id', '=', a.key_id), eb('k.user_id', '=', eb.ref('w.user_id')), eb('k.deleted_at', 'is', null)])),
    )
    .select([
      'k.id as key_live',
      'k.scopes as key_scopes',
      'k.allowlist as key_allowlist',
      'k.per_tx_limit as key_per_tx_limit',
      'k.daily_limit as key_daily_limit',
      'k.monthly_limit as key_monthly_limit',
      'k.expires_at as key_expires_at',
    ]);
});

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
  const args = { user_id: userId, user: userSubject(userId), key: keyId ? keySubject(keyId) : '', key_id: keyId ?? '', day: period.day, month: period.month };
  const row = await inputsOf({ key: keyId !== null }).first(db, args);
  if (!row) return null;
  return {
    paused: row.paused_at !== null,
    thresholds: thresholdsFromRow(ctx, row.has_thresholds === null ? undefined : row),
    usage: { day: Number(row.user_day ?? 0), month: Number(row.user_month ?? 0) },
    keyUsage: keyId ? { day: Number(row.key_day ?? 0), month: Number(row.key_month ?? 0) } : null,
    key: keyId === null ? null : keyNow(ctx, row),
  };
}

function keyNow(ctx: AppContext, row: Row): KeyControls | 'expired' | 'gone' {
  if (row.key_live === null) return 'gone';
  const controls = controlsOf({
    scopes: row.key_scopes,
    allowlist: row.key_allowlist,
    per_tx_limit: row.key_per_tx_limit,
    daily_limit: row.key_daily_limit,
    monthly_limit: row.key_monthly_limit,
    expires_at: row.key_expires_at,
  });
  return controls.expiresAt !== null && controls.expiresAt <= ctx.clock.now().toISOString() ? 'expired' : controls;
}
