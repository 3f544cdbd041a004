import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { inferDestinationKind, isValidDestination, type DestinationKind } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import { refuseUnlessLive, type Principal } from '../auth/auth.service.js';
import type { KeyControls } from '../keys/key-controls.js';
import { evaluatePolicy, type PolicyResult, type PolicyThresholds } from '../policy/policy.js';
import { askRail } from '../rail/rail.answers.js';
import type { ResolvedAccount } from '../rail/rail.port.js';
import type { WalletForPayout } from '../wallet/wallet.locks.js';
import { onboardingIncomplete } from '../wallet/wallet.service.js';
import { readDecisionInputs } from './payout.inputs.js';
import type { Usage } from './usage.js';

/**
 * What the policy decides a payout on, read the one way both the real payout (`payout.request.ts`, under the
 * per-user lock) and its simulation (`payout.simulate.ts`, without it) read it, so a simulation cannot drift
 * from the decision a payout would get.
 */

/** The destination as a payout addresses it: its kind (D40: inferred when not given) and the trimmed value. */
export interface PayoutDestination {
  kind: DestinationKind;
  destination: string;
  /** The rail's answer: the holder behind it, or null when it is malformed or the rail knows no such account. */
  resolved: ResolvedAccount | null;
}

export interface PayoutDecision {
  policy: PolicyResult;
  thresholds: PolicyThresholds;
  /** Committed centavos this day and month (D16), not counting this payout. */
  usage: Usage;
  /** D31: the asking key's controls and usage; null for the owner's session. */
  key: { controls: KeyControls; usage: Usage } | null;
}

/** D40: omitted, the kind is inferred as the older surface does (D32), not assumed CBU. */
export const destinationKindOf = (input: { destination: string; destination_kind?: DestinationKind }): DestinationKind =>
  input.destination_kind ?? inferDestinationKind(input.destination.trim());

/**
 * The holder behind a destination, asked of the rail before any transaction: null for a malformed destination
 * or one the rail does not know. `retryHint` ends the 503 message (a payout says to reuse its key).
 */
export async function lookUpDestination(
  ctx: AppContext,
  input: { destination: string; destination_kind?: DestinationKind },
  retryHint: string,
): Promise<PayoutDestination> {
  const destination = input.destination.trim();
  const kind = destinationKindOf(input);
  if (!isValidDestination(kind, destination)) return { kind, destination, resolved: null };
  return { kind, destination, resolved: await askRail(ctx, 'resolve', () => ctx.rail.resolve(kind, destination), retryHint) };
}

/**
 * Reads thresholds, usage (the user's and the key's), the emergency stop (one statement: `readDecisionInputs`), and
 * runs the policy (D15, D16, D31).
 * `db` is the payout's transaction holding the per-user lock, or any executor for a simulation.
 */
export async function decidePayout(
  ctx: AppContext,
  db: Executor,
  who: Principal,
  wallet: Pick<WalletForPayout, 'kyc_status' | 'cvu'>,
  period: { day: string; month: string },
  req: { amountArs: number; dest: PayoutDestination; approvalAtThreshold?: boolean },
): Promise<PayoutDecision> {
  const asKey = who.kind === 'api_key' && who.keyId ? who.keyId : null;
  const inputs = await readDecisionInputs(ctx, db, who.userId, asKey, period);
  if (!inputs) throw noWalletError();
  const { thresholds, usage, keyUsage } = inputs;
  // D12, D31, D44: the key as it is now, not as the request's authentication found it: a revoke, an edit or an
  // expiry the owner saw answered before this decision (under the per-user lock) holds for it.
  const keyControls = refuseUnlessLive(inputs.key) ?? undefined;
  const { kind, destination, resolved } = req.dest;
  const policy = evaluatePolicy({
    amountArs: req.amountArs,
    destination,
    destinationKind: kind,
    destinationAliases: resolved ? [resolved.accountNumber] : [],
    destinationExists: resolved !== null || !isValidDestination(kind, destination) ? undefined : false,
    ownAccount: wallet.cvu,
    thresholds,
    usage,
    kycStatus: wallet.kyc_status,
    absoluteCap: Math.round(ctx.config.absoluteCapArs * 100),
    paused: inputs.paused,
    approvalAtThreshold: req.approvalAtThreshold,
    key: keyControls && {
      allowlist: keyControls.allowlist,
      perTxLimit: keyControls.perTxLimit,
      dailyLimit: keyControls.dailyLimit,
      monthlyLimit: keyControls.monthlyLimit,
      usage: keyUsage!,
    },
  });
  return {
    policy,
    thresholds,
    usage,
    key: keyControls ? { controls: keyControls, usage: keyUsage! } : null,
  };
}

/** The errors a payout answers instead of a decision, the same for a simulation. */
export const noWalletError = onboardingIncomplete;
export const noChannelError = (policy: PolicyResult) =>
  new AppError('APPROVAL_NOT_CONFIGURED', 'This payout needs approval but no approval channel is available', { reasons: policy.reasons });
