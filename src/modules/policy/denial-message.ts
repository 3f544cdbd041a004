import { DENY_REASONS, type DenyReason } from './policy.js';

/** What each deny reason means, for the caller who reads the message rather than the reasons' list. */
const DENY_WORDS: Record<DenyReason, string> = {
  amount_invalid: 'the amount is not above 0, has more than 2 decimals or is too large',
  destination_invalid: "not a valid CBU, CVU or alias, no account answers to it, or it is this wallet's own account",
  kyc_incomplete: "the owner's identity (KYC) is not verified",
  absolute_cap: "over the service's maximum for one payout",
  key_allowlist_violation: 'this API key may not pay that destination',
  payouts_paused: 'the owner has paused payouts',
};

const isDeny = (r: string): r is DenyReason => (DENY_REASONS as readonly string[]).includes(r);

/**
 * The message of a PAYOUT_DENIED: the reasons that deny it, each in words, apart from the ones that would only
 * have asked for the owner's approval (every reason that applies is returned, D15, and the list alone read as if
 * `above_approval_threshold` denied too).
 */
export function denialMessage(reasons: readonly string[]): string {
  const deny = reasons.filter(isDeny).map((r) => `${r} (${DENY_WORDS[r]})`);
  const approval = reasons.filter((r) => !isDeny(r));
  const also = approval.length ? `. Were it not denied, it would also wait for the owner's approval: ${approval.join(', ')}` : '';
  return `Payout denied: ${deny.join(', ')}${also}`;
}
