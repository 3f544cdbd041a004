import type { AppContext } from '../../context.js';
import { centavosToArs } from '../../shared/money.js';
import { availableChannels } from '../approvals/approvals.service.js';
import type { Principal } from '../auth/auth.service.js';
import { destinationSummary } from '../destinations/destinations.service.js';
import type { Decision, PolicyReason } from '../policy/policy.js';
import { findWallet } from '../wallet/wallet.service.js';
import { buenosAiresDay } from './calendar.js';
import { decidePayout, lookUpDestination, noChannelError, noWalletError } from './payout.decision.js';
import type { PayoutRequest } from './payout.request.js';

/** One limit as the policy sees it now, in ARS: 0 is no limit (then `remaining` is null). */
export interface LimitView {
  limit: number;
  /** Already committed in the period (today, this month), not counting the simulated payout; 0 for a per-payout limit. */
  used: number;
  /** What is left before the limit holds a payout for approval; null when there is no limit. */
  remaining: number | null;
}

export interface SimulationView {
  decision: Decision;
  reasons: PolicyReason[];
  limits: {
    per_tx: LimitView;
    daily: LimitView;
    monthly: LimitView;
    /** The asking key's own limits; null for the owner's session, which has none. */
    key_per_tx: LimitView | null;
    key_daily: LimitView | null;
    key_monthly: LimitView | null;
  };
  destination: ReturnType<typeof destinationSummary>;
}

const limitView = (limit: number, used: number): LimitView => ({
  limit: centavosToArs(limit),
  used: centavosToArs(used),
  remaining: limit > 0 ? centavosToArs(Math.max(0, limit - used)) : null,
});

/**
 * `POST /v1/withdraws/simulate` and MCP `simulate_payout`: the decision `requestPayout` would take now, read
 * through the same `decidePayout`, and the errors it would answer instead of one (no wallet, the rail not
 * answering, approval needed with no channel). It writes nothing: no attempt, usage, audit row, event or key, and
 * it takes no lock, so a payout right after it may meet a different state.
 */
export async function simulatePayout(ctx: AppContext, who: Principal, input: PayoutRequest): Promise<SimulationView> {
  const dest = await lookUpDestination(ctx, input, 'retry shortly');
  const db = ctx.store.db;
  const wallet = await findWallet(ctx, who.userId);
  if (!wallet) throw noWalletError();
  const d = await decidePayout(ctx, db, who, wallet, buenosAiresDay(ctx.clock.now()), { amountArs: input.amount_ars, dest });
  if (d.policy.decision === 'require_approval' && (await availableChannels(ctx, who.userId, db)).length === 0) throw noChannelError(d.policy);
  const t = d.thresholds;
  const k = d.key;
  return {
    decision: d.policy.decision,
    reasons: d.policy.reasons,
    limits: {
      per_tx: limitView(t.perTxLimit, 0),
      daily: limitView(t.dailyLimit, d.usage.day),
      monthly: limitView(t.monthlyLimit, d.usage.month),
      key_per_tx: k && limitView(k.controls.perTxLimit, 0),
      key_daily: k && limitView(k.controls.dailyLimit, k.usage.day),
      key_monthly: k && limitView(k.controls.monthlyLimit, k.usage.month),
    },
    destination: destinationSummary(dest),
  };
}
