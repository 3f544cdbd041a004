import { canonicalDestination, isValidDestination, type DestinationKind } from '../../shared/ar-identifiers.js';
import { arsToCentavos } from '../../shared/money.js';

/**
 * The policy engine (D15): a pure, total function. It returns every reason that applies, not the first; any
 * deny reason denies, else any approval reason requires approval, else the payout is allowed.
 */
export const DENY_REASONS = ['amount_invalid', 'destination_invalid', 'kyc_incomplete', 'absolute_cap', 'key_allowlist_violation', 'payouts_paused'] as const;
export const APPROVAL_REASONS = [
  'per_tx_limit',
  'daily_limit',
  'monthly_limit',
  'above_approval_threshold',
  'destination_not_whitelisted',
  'key_per_tx_limit',
  'key_daily_limit',
  'key_monthly_limit',
] as const;
export type DenyReason = (typeof DENY_REASONS)[number];
export type ApprovalReason = (typeof APPROVAL_REASONS)[number];
export type PolicyReason = DenyReason | ApprovalReason;
export type Decision = 'allow' | 'require_approval' | 'deny';

/** Limits in centavos; 0 disables a limit (contract, Thresholds). */
export interface PolicyThresholds {
  perTxLimit: number;
  dailyLimit: number;
  monthlyLimit: number;
  requireApprovalAbove: number;
  whitelist: string[];
}

export interface PolicyInput {
  /** The amount exactly as requested, in ARS. */
  amountArs: number;
  destination: string;
  destinationKind: DestinationKind;
  /**
   * The other names the destination is known by (an alias's resolved CVU), so a whitelisted account matches
   * when paid through its alias. Not the other way: a whitelisted alias does not cover its account paid by
   * number (that payout asks for approval, the safe side). Empty when the rail could not resolve it.
   */
  destinationAliases?: string[];
  /** False when the rail knows no such account: a bad alias is `destination_invalid`. */
  destinationExists?: boolean;
  /** The payer's own account (the wallet's CVU): paying it, by number or alias, is `destination_invalid`. */
  ownAccount?: string;
  thresholds: PolicyThresholds;
  /** Centavos already committed today and this month (D16), not counting this payout. */
  usage: { day: number; month: number };
  kycStatus: string;
  absoluteCap: number;
  /** D31: the owner's emergency stop. */
  paused?: boolean;
  /** D32: the older transfer surface asks for approval at the threshold too ("at or above"). */
  approvalAtThreshold?: boolean;
  /** D31: the asking key's own controls and usage (absent for the owner's session); limits of 0 are off. */
  key?: {
    allowlist: string[];
    perTxLimit: number;
    dailyLimit: number;
    monthlyLimit: number;
    usage: { day: number; month: number };
  };
}

export interface PolicyResult {
  decision: Decision;
  reasons: PolicyReason[];
  /** The amount in centavos, when it is valid. */
  amount: number | null;
}

export function evaluatePolicy(input: PolicyInput): PolicyResult {
  const reasons: PolicyReason[] = [];
  const amount = arsToCentavos(input.amountArs);
  const amountOk = amount !== null && amount > 0;
  const t = input.thresholds;

  const names = [input.destination, ...(input.destinationAliases ?? [])];
  // Where D15 is silent: a payout to the payer's own account moves nothing, and the bank refuses it anyway.
  const toSelf = input.ownAccount !== undefined && names.includes(input.ownAccount);

  if (!amountOk) reasons.push('amount_invalid');
  if (!isValidDestination(input.destinationKind, input.destination) || input.destinationExists === false || toSelf) {
    reasons.push('destination_invalid');
  }
  if (input.kycStatus !== 'verified') reasons.push('kyc_incomplete');
  if (amountOk && input.absoluteCap > 0 && amount > input.absoluteCap) reasons.push('absolute_cap');
  const k = input.key;
  if (k && k.allowlist.length > 0 && !isWhitelisted(k.allowlist, names)) reasons.push('key_allowlist_violation');
  if (input.paused) reasons.push('payouts_paused');

  if (amountOk) {
    if (t.perTxLimit > 0 && amount > t.perTxLimit) reasons.push('per_tx_limit');
    if (t.dailyLimit > 0 && input.usage.day + amount > t.dailyLimit) reasons.push('daily_limit');
    if (t.monthlyLimit > 0 && input.usage.month + amount > t.monthlyLimit) reasons.push('monthly_limit');
  }
  if (amountOk && k) {
    if (k.perTxLimit > 0 && amount > k.perTxLimit) reasons.push('key_per_tx_limit');
    if (k.dailyLimit > 0 && k.usage.day + amount > k.dailyLimit) reasons.push('key_daily_limit');
    if (k.monthlyLimit > 0 && k.usage.month + amount > k.monthlyLimit) reasons.push('key_monthly_limit');
  }
  const whitelisted = isWhitelisted(t.whitelist, names);
  const overThreshold = input.approvalAtThreshold ? amount! >= t.requireApprovalAbove : amount! > t.requireApprovalAbove;
  if (amountOk && !whitelisted && t.requireApprovalAbove > 0 && overThreshold) {
    reasons.push('above_approval_threshold');
  }
  if (t.whitelist.length > 0 && !whitelisted) reasons.push('destination_not_whitelisted');

  const decision: Decision = reasons.some((r) => (DENY_REASONS as readonly string[]).includes(r))
    ? 'deny'
    : reasons.length > 0
      ? 'require_approval'
      : 'allow';
  return { decision, reasons, amount: amountOk ? amount : null };
}

function isWhitelisted(whitelist: string[], names: string[]): boolean {
  if (whitelist.length === 0) return false;
  const wl = new Set(whitelist.map(canonicalDestination));
  return names.some((n) => wl.has(canonicalDestination(n)));
}
