import { describe, expect, it } from 'vitest';
import { DENY_REASONS, evaluatePolicy, type PolicyInput, type PolicyReason } from './policy.js';

/**
 * D15, D31, D32: every combination of reasons, exhaustively. Each reason has its own switch that moves only its own
 * input across its boundary (one centavo past it, or exactly at it), so the expected answer is the set of switches
 * that are on: every reason that applies is returned, any deny reason denies, else any approval reason asks, else
 * the payout is allowed. An invalid amount turns off every amount-based reason; a whitelisted destination turns off
 * `above_approval_threshold` and nothing else.
 */
const A = 100_000; // the payout: 1 000 ARS, in centavos
const OTHER_CBU = '0170099220000067797370';
const CVU = '0000003101234567890126';
const ALIAS = 'mate.rio.sol';

const AMOUNT_BASED: PolicyReason[] = [
  'absolute_cap',
  'per_tx_limit',
  'daily_limit',
  'monthly_limit',
  'above_approval_threshold',
  'key_per_tx_limit',
  'key_daily_limit',
  'key_monthly_limit',
];
/** Reasons driven by one switch each (`destination_not_whitelisted` and `amount_invalid` are the grid's own axes). */
const SWITCHED = [
  'destination_invalid',
  'kyc_incomplete',
  'absolute_cap',
  'key_allowlist_violation',
  'payouts_paused',
  'per_tx_limit',
  'daily_limit',
  'monthly_limit',
  'above_approval_threshold',
  'key_per_tx_limit',
  'key_daily_limit',
  'key_monthly_limit',
] as const satisfies readonly PolicyReason[];
type Switched = (typeof SWITCHED)[number];
const KEY_ONLY: Switched[] = ['key_allowlist_violation', 'key_per_tx_limit', 'key_daily_limit', 'key_monthly_limit'];

type Whitelist = 'none' | 'other' | 'this';

function inputFor(on: Set<Switched>, o: { amountInvalid: boolean; whitelist: Whitelist; atThreshold: boolean; withKey: boolean }): PolicyInput {
  const exists = !on.has('destination_invalid');
  // The threshold sits exactly at the amount (not over it) or one centavo under it; the older surface (D32) also
  // asks at the threshold itself, so there it sits one centavo above (not at or over) or exactly at it.
  const threshold = o.atThreshold ? (on.has('above_approval_threshold') ? A : A + 1) : on.has('above_approval_threshold') ? A - 1 : A;
  return {
    amountArs: o.amountInvalid ? 1000.001 : A / 100,
    destination: ALIAS,
    destinationKind: 'ALIAS',
    // As a payout's decision builds it: the account an alias resolves to, or nothing when the rail knows none.
    destinationAliases: exists ? [CVU] : [],
    destinationExists: exists ? undefined : false,
    thresholds: {
      perTxLimit: on.has('per_tx_limit') ? A - 1 : A,
      dailyLimit: A + 50_000,
      monthlyLimit: A + 70_000,
      requireApprovalAbove: threshold,
      // The destination matches by its alias in another case (D7).
      whitelist: o.whitelist === 'none' ? [] : o.whitelist === 'other' ? [OTHER_CBU] : ['Mate.Rio.SOL'],
    },
    usage: { day: on.has('daily_limit') ? 50_001 : 50_000, month: on.has('monthly_limit') ? 70_001 : 70_000 },
    kycStatus: on.has('kyc_incomplete') ? 'pending' : 'verified',
    absoluteCap: on.has('absolute_cap') ? A - 1 : A,
    paused: on.has('payouts_paused'),
    approvalAtThreshold: o.atThreshold,
    key: o.withKey
      ? {
          allowlist: on.has('key_allowlist_violation') ? [OTHER_CBU] : [ALIAS.toUpperCase()],
          perTxLimit: on.has('key_per_tx_limit') ? A - 1 : A,
          dailyLimit: A + 30_000,
          monthlyLimit: A + 90_000,
          usage: { day: on.has('key_daily_limit') ? 30_001 : 30_000, month: on.has('key_monthly_limit') ? 90_001 : 90_000 },
        }
      : undefined,
  };
}

function expected(on: Set<Switched>, o: { amountInvalid: boolean; whitelist: Whitelist }): { decision: string; reasons: string[] } {
  const reasons: string[] = [...on].filter(
    (r) => !(o.amountInvalid && AMOUNT_BASED.includes(r)) && !(o.whitelist === 'this' && r === 'above_approval_threshold'),
  );
  if (o.amountInvalid) reasons.push('amount_invalid');
  if (o.whitelist === 'other') reasons.push('destination_not_whitelisted');
  const decision = reasons.some((r) => (DENY_REASONS as readonly string[]).includes(r)) ? 'deny' : reasons.length > 0 ? 'require_approval' : 'allow';
  return { decision, reasons: reasons.sort() };
}

/** Every subset of `items`. */
function* subsets<T>(items: readonly T[]): Generator<Set<T>> {
  for (let mask = 0; mask < 2 ** items.length; mask++) yield new Set(items.filter((_, i) => mask & (2 ** i)));
}

describe('policy engine: every combination of reasons (D15, D31, D32)', () => {
  const grid: [string, { amountInvalid: boolean; whitelist: Whitelist; atThreshold: boolean; withKey: boolean }][] = [];
  for (const withKey of [true, false])
    for (const amountInvalid of [false, true])
      for (const whitelist of ['none', 'other', 'this'] as const)
        for (const atThreshold of [false, true]) {
          grid.push([`${withKey ? 'agent' : 'owner'}, amount ${amountInvalid ? 'invalid' : 'valid'}, whitelist ${whitelist}, ${atThreshold ? 'at or above (D32)' : 'above'}`, { amountInvalid, whitelist, atThreshold, withKey }]);
        }

  it.each(grid)('%s', (_, o) => {
    const switches = o.withKey ? SWITCHED : SWITCHED.filter((r) => !KEY_ONLY.includes(r));
    const wrong: unknown[] = [];
    let cases = 0;
    for (const on of subsets(switches)) {
      cases++;
      const got = evaluatePolicy(inputFor(on, o));
      const want = expected(on, o);
      const reasons = [...got.reasons].sort();
      if (got.decision !== want.decision || JSON.stringify(reasons) !== JSON.stringify(want.reasons) || new Set(got.reasons).size !== got.reasons.length) {
        wrong.push({ on: [...on], got, want });
      }
      expect(got.amount).toBe(o.amountInvalid ? null : A);
    }
    expect(cases).toBe(2 ** switches.length);
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
