import type { AppContext } from '../../context.js';
import { compiled } from '../../db/compiled.js';
import { waitLongerForLocks, type Executor } from '../../db/database.js';
import { kindOf } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import { arsToCentavos, centavosToArs } from '../../shared/money.js';
import { writeAudit } from '../audit/audit.service.js';
import { wakeLiveAfterCommit } from '../live/live.hub.js';
import type { Principal } from '../auth/auth.service.js';
import type { PolicyThresholds } from '../policy/policy.js';
import { lockWalletForPayout } from '../wallet/wallet.locks.js';
import type { ThresholdsTable } from './thresholds.tables.js';

/** The wire form (contract, Thresholds): ARS numbers, 0 disables a limit. */
export interface ThresholdsView {
  per_tx_limit_ars: number;
  daily_limit_ars: number;
  monthly_limit_ars: number;
  whitelist_cbus: string[];
  require_approval_above_ars: number;
}
export const THRESHOLD_FIELDS = [
  'per_tx_limit_ars',
  'daily_limit_ars',
  'monthly_limit_ars',
  'whitelist_cbus',
  'require_approval_above_ars',
] as const;
const AMOUNT_FIELDS = ['per_tx_limit_ars', 'daily_limit_ars', 'monthly_limit_ars', 'require_approval_above_ars'] as const;

export function defaultThresholds(ctx: AppContext): PolicyThresholds {
  const d = ctx.config.defaults;
  return {
    perTxLimit: Math.round(d.perTxLimitArs * 100),
    dailyLimit: Math.round(d.dailyLimitArs * 100),
    monthlyLimit: Math.round(d.monthlyLimitArs * 100),
    requireApprovalAbove: Math.round(d.requireApprovalAboveArs * 100),
    whitelist: d.whitelistCbus,
  };
}

const thresholdsOf = compiled<{ user_id: string }, ThresholdsTable>((db, a) => db.selectFrom('thresholds').selectAll().where('user_id', '=', a.user_id));

/** A user's thresholds, or the configured defaults while the user has set none. */
export async function loadThresholds(ctx: AppContext, db: Executor, userId: string): Promise<PolicyThresholds> {
  return thresholdsFromRow(ctx, await thresholdsOf.first(db, { user_id: userId }));
}

/** The thresholds a row holds, or the configured defaults for no row (a payout's decision reads it in a join). */
export function thresholdsFromRow(ctx: AppContext, row: Omit<ThresholdsTable, 'user_id' | 'updated_at'> | undefined): PolicyThresholds {
  if (!row) return defaultThresholds(ctx);
  return {
    perTxLimit: Number(row.per_tx_limit),
    dailyLimit: Number(row.daily_limit),
    monthlyLimit: Number(row.monthly_limit),
    requireApprovalAbove: Number(row.require_approval_above),
    whitelist: JSON.parse(row.whitelist) as string[],
  };
}

export const toThresholdsView = (t: PolicyThresholds): ThresholdsView => ({
  per_tx_limit_ars: centavosToArs(t.perTxLimit),
  daily_limit_ars: centavosToArs(t.dailyLimit),
  monthly_limit_ars: centavosToArs(t.monthlyLimit),
  whitelist_cbus: t.whitelist,
  require_approval_above_ars: centavosToArs(t.requireApprovalAbove),
});

export async function getThresholds(ctx: AppContext, userId: string): Promise<ThresholdsView> {
  return toThresholdsView(await loadThresholds(ctx, ctx.store.db, userId));
}

/** Each wire field and the threshold it sets. */
export const FIELD_KEYS = {
  per_tx_limit_ars: 'perTxLimit',
  daily_limit_ars: 'dailyLimit',
  monthly_limit_ars: 'monthlyLimit',
  require_approval_above_ars: 'requireApprovalAbove',
  whitelist_cbus: 'whitelist',
} as const satisfies Record<keyof ThresholdsView, keyof PolicyThresholds>;

/**
 * Validates a full or partial threshold set and converts it to centavos. Every amount is ≥ 0 with at most two
 * decimals; every whitelist entry must be a valid CBU, CVU or alias. `where` prefixes the field a message names:
 * `body.` on REST, nothing for an MCP tool's arguments.
 */
export function parseThresholdFields(input: Partial<ThresholdsView>, where = 'body.'): Partial<PolicyThresholds> {
  const out: Partial<PolicyThresholds> = {};
  for (const f of AMOUNT_FIELDS) {
    const v = input[f];
    if (v === undefined) continue;
    const c = arsToCentavos(v);
    if (c === null || c < 0) throw new AppError('INVALID_REQUEST', `${where}${f}: a non-negative amount with at most 2 decimals`);
    out[FIELD_KEYS[f]] = c;
  }
  if (input.whitelist_cbus !== undefined) {
    const bad = input.whitelist_cbus.find((w) => kindOf(w.trim()) === null);
    if (bad !== undefined) {
      throw new AppError('INVALID_REQUEST', `${where}whitelist_cbus: "${bad}" is not a valid CBU, CVU or alias`);
    }
    out.whitelist = [...new Set(input.whitelist_cbus.map((w) => w.trim()))];
  }
  return out;
}

export async function writeThresholds(db: Executor, userId: string, t: PolicyThresholds, now: Date): Promise<void> {
  const row = {
    per_tx_limit: t.perTxLimit,
    daily_limit: t.dailyLimit,
    monthly_limit: t.monthlyLimit,
    require_approval_above: t.requireApprovalAbove,
    whitelist: JSON.stringify(t.whitelist),
    updated_at: now.toISOString(),
  };
  await db
    .insertInto('thresholds')
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
  wakeLiveAfterCommit(db, userId); // an open dashboard's limits form learns of it at once, whoever changed them
}

/**
 * PUT semantics (contract): all five fields; omitted numeric fields are written as 0, an omitted whitelist as [].
 * "At once" (D16): under the per-user lock a payout's decision holds, waiting as long as the emergency stop may, so a
 * payout decided on the old limits has committed before this answers and every later one reads the new ones. The
 * activity entry commits with the change.
 */
export async function replaceThresholds(ctx: AppContext, who: Principal, input: Partial<ThresholdsView>): Promise<void> {
  const parsed = parseThresholdFields(input);
  const full: PolicyThresholds = {
    perTxLimit: parsed.perTxLimit ?? 0,
    dailyLimit: parsed.dailyLimit ?? 0,
    monthlyLimit: parsed.monthlyLimit ?? 0,
    requireApprovalAbove: parsed.requireApprovalAbove ?? 0,
    whitelist: parsed.whitelist ?? [],
  };
  await ctx.store.transaction(async (tx) => {
    await waitLongerForLocks(ctx.store, tx);
    await lockWalletForPayout(ctx.store, tx, who.userId);
    await writeThresholds(tx, who.userId, full, ctx.clock.now());
    await writeAudit(tx, ctx.clock, who, { action: 'thresholds.replaced' });
  });
}
