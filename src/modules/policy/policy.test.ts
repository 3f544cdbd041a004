import { describe, expect, it } from 'vitest';
import { evaluatePolicy, type PolicyInput } from './policy.js';

const CBU = '2850590940090418135201';
const OTHER_CBU = '0170099220000067797370';
const CVU = '0000003101234567890126';

// Limits in centavos: per-tx 1 000, daily 5 000, monthly 20 000, approval above 500 ARS.
const base = (over: Partial<PolicyInput> = {}): PolicyInput => ({
  amountArs: 100,
  destination: CBU,
  destinationKind: 'CBU',
  thresholds: { perTxLimit: 100_000, dailyLimit: 500_000, monthlyLimit: 2_000_000, requireApprovalAbove: 50_000, whitelist: [] },
  usage: { day: 0, month: 0 },
  kycStatus: 'verified',
  absoluteCap: 5_000_000,
  ...over,
});
const t = (over: Partial<PolicyInput['thresholds']>) => ({ ...base().thresholds, ...over });

describe('policy engine (D15)', () => {
  it('allows a small payout with no reasons', () => {
    expect(evaluatePolicy(base())).toEqual({ decision: 'allow', reasons: [], amount: 10000 });
  });

  describe('deny reasons, each alone', () => {
    it.each([0, -1, -0.01, 1.001, 0.005, NaN, Infinity])('amount_invalid for %s', (amountArs) => {
      expect(evaluatePolicy(base({ amountArs }))).toMatchObject({ decision: 'deny', reasons: ['amount_invalid'], amount: null });
    });
    it.each([
      ['2850590940090418135202', 'CBU'],
      [CBU, 'CVU'],
      ['mate', 'ALIAS'],
      ['has space!', 'ALIAS'],
      [CBU, 'ALIAS'],
    ] as const)('destination_invalid for %s as %s', (destination, destinationKind) => {
      expect(evaluatePolicy(base({ destination, destinationKind }))).toMatchObject({ decision: 'deny', reasons: ['destination_invalid'] });
    });
    it('destination_invalid when the rail knows no such account', () => {
      expect(evaluatePolicy(base({ destination: 'no.such.alias', destinationKind: 'ALIAS', destinationExists: false })).reasons).toEqual([
        'destination_invalid',
      ]);
    });
    it.each(['pending', 'rejected', 'none'])('kyc_incomplete for KYC %s', (kycStatus) => {
      expect(evaluatePolicy(base({ kycStatus }))).toMatchObject({ decision: 'deny', reasons: ['kyc_incomplete'] });
    });
    it('absolute_cap above ABSOLUTE_CAP_ARS, even with every limit disabled', () => {
      const r = evaluatePolicy(base({ amountArs: 50_000.01, thresholds: t({ perTxLimit: 0, dailyLimit: 0, monthlyLimit: 0, requireApprovalAbove: 0 }) }));
      expect(r).toMatchObject({ decision: 'deny', reasons: ['absolute_cap'] });
      const at = evaluatePolicy(base({ amountArs: 50_000, thresholds: t({ perTxLimit: 0, dailyLimit: 0, monthlyLimit: 0, requireApprovalAbove: 0 }) }));
      expect(at.decision).toBe('allow');
    });
  });

  describe('approval reasons, each alone, at the boundary', () => {
    const noApproval = { requireApprovalAbove: 0 };
    it('per_tx_limit: exactly at the limit passes, one centavo above needs approval', () => {
      const th = t({ perTxLimit: 100_000, ...noApproval });
      expect(evaluatePolicy(base({ amountArs: 1000, thresholds: th })).reasons).toEqual([]);
      expect(evaluatePolicy(base({ amountArs: 1000.01, thresholds: th }))).toMatchObject({
        decision: 'require_approval',
        reasons: ['per_tx_limit'],
      });
    });
    it('daily_limit counts what is already committed today', () => {
      const th = t({ dailyLimit: 500_000, ...noApproval });
      expect(evaluatePolicy(base({ amountArs: 100, usage: { day: 490_000, month: 490_000 }, thresholds: th })).reasons).toEqual([]);
      expect(evaluatePolicy(base({ amountArs: 100.01, usage: { day: 490_000, month: 490_000 }, thresholds: th })).reasons).toEqual([
        'daily_limit',
      ]);
    });
    it('monthly_limit counts what is already committed this month', () => {
      const th = t({ monthlyLimit: 2_000_000, ...noApproval });
      expect(evaluatePolicy(base({ amountArs: 100, usage: { day: 0, month: 1_990_000 }, thresholds: th })).reasons).toEqual([]);
      expect(evaluatePolicy(base({ amountArs: 100.01, usage: { day: 0, month: 1_990_000 }, thresholds: th })).reasons).toEqual([
        'monthly_limit',
      ]);
    });
    it('above_approval_threshold: at the threshold passes, above needs approval', () => {
      expect(evaluatePolicy(base({ amountArs: 500 })).reasons).toEqual([]);
      expect(evaluatePolicy(base({ amountArs: 500.01 }))).toMatchObject({
        decision: 'require_approval',
        reasons: ['above_approval_threshold'],
      });
    });
    it('destination_not_whitelisted when a whitelist exists and the destination is not in it', () => {
      expect(evaluatePolicy(base({ thresholds: t({ whitelist: [OTHER_CBU] }) }))).toMatchObject({
        decision: 'require_approval',
        reasons: ['destination_not_whitelisted'],
      });
    });
  });

  describe('0 disables a limit', () => {
    it.each([
      ['perTxLimit', { amountArs: 10_000 }],
      ['dailyLimit', { amountArs: 100, usage: { day: 10_000_000, month: 0 } }],
      ['monthlyLimit', { amountArs: 100, usage: { day: 0, month: 10_000_000 } }],
    ] as const)('%s = 0', (field, over) => {
      const th = t({ perTxLimit: 0, dailyLimit: 0, monthlyLimit: 0, requireApprovalAbove: 0, [field]: 0 });
      expect(evaluatePolicy(base({ ...over, thresholds: th }))).toMatchObject({ decision: 'allow', reasons: [] });
    });
    it('requireApprovalAbove = 0 never asks for approval by amount', () => {
      expect(evaluatePolicy(base({ amountArs: 999, thresholds: t({ requireApprovalAbove: 0 }) })).reasons).toEqual([]);
    });
  });

  describe('whitelist', () => {
    it('a whitelisted destination skips above_approval_threshold but not the limits', () => {
      const th = t({ whitelist: [CBU], perTxLimit: 200_000 });
      expect(evaluatePolicy(base({ amountArs: 1500, thresholds: th }))).toMatchObject({ decision: 'allow', reasons: [] });
      expect(evaluatePolicy(base({ amountArs: 2500, thresholds: th })).reasons).toEqual(['per_tx_limit']);
      expect(evaluatePolicy(base({ amountArs: 100, usage: { day: 499_999, month: 0 }, thresholds: th })).reasons).toEqual(['daily_limit']);
    });
    it('matches aliases case-insensitively and an alias by the account it resolves to', () => {
      const th = t({ whitelist: ['Mate.Rio.Sol', CVU] });
      expect(evaluatePolicy(base({ destination: 'mate.rio.SOL', destinationKind: 'ALIAS', thresholds: th })).reasons).toEqual([]);
      const viaAlias = base({ destination: 'other.alias', destinationKind: 'ALIAS', destinationAliases: [CVU], thresholds: th });
      expect(evaluatePolicy(viaAlias).reasons).toEqual([]);
    });
  });

  it('the payer\'s own account, by number or through an alias, is destination_invalid', () => {
    expect(evaluatePolicy(base({ destination: CBU, ownAccount: CBU })).reasons).toEqual(['destination_invalid']);
    expect(evaluatePolicy(base({ destination: 'mi.propio.alias', destinationKind: 'ALIAS', destinationAliases: [CBU], ownAccount: CBU })).reasons).toEqual(['destination_invalid']);
    expect(evaluatePolicy(base({ destination: CBU, ownAccount: CVU })).reasons).toEqual([]);
  });

  describe('combinations: every reason that applies, deny wins', () => {
    it('all approval reasons at once', () => {
      const r = evaluatePolicy(
        base({ amountArs: 2000, usage: { day: 499_000, month: 1_999_000 }, thresholds: t({ whitelist: [OTHER_CBU] }) }),
      );
      expect(r).toMatchObject({
        decision: 'require_approval',
        reasons: ['per_tx_limit', 'daily_limit', 'monthly_limit', 'above_approval_threshold', 'destination_not_whitelisted'],
      });
    });
    it('deny and approval reasons together: deny, with all of them listed', () => {
      const r = evaluatePolicy(base({ amountArs: 60_000, kycStatus: 'pending', thresholds: t({ whitelist: [OTHER_CBU] }) }));
      expect(r.decision).toBe('deny');
      expect(r.reasons).toEqual([
        'kyc_incomplete',
        'absolute_cap',
        'per_tx_limit',
        'daily_limit',
        'monthly_limit',
        'above_approval_threshold',
        'destination_not_whitelisted',
      ]);
    });
    it('every deny reason at once', () => {
      const r = evaluatePolicy(base({ amountArs: -5, destination: 'x', destinationKind: 'CBU', kycStatus: 'pending' }));
      expect(r).toMatchObject({ decision: 'deny', reasons: ['amount_invalid', 'destination_invalid', 'kyc_incomplete'] });
    });
    it('an invalid amount skips the amount-based checks but still reports the whitelist', () => {
      const r = evaluatePolicy(base({ amountArs: 1.234, thresholds: t({ whitelist: [OTHER_CBU] }) }));
      expect(r.reasons).toEqual(['amount_invalid', 'destination_not_whitelisted']);
      expect(r.decision).toBe('deny');
    });
  });
});

describe('per-agent controls and the emergency stop (D31)', () => {
  const key = (over: Partial<NonNullable<PolicyInput['key']>> = {}): PolicyInput['key'] => ({
    allowlist: [],
    perTxLimit: 0,
    dailyLimit: 0,
    monthlyLimit: 0,
    usage: { day: 0, month: 0 },
    ...over,
  });

  it('a key with no controls changes nothing', () => {
    expect(evaluatePolicy(base({ key: key() }))).toEqual({ decision: 'allow', reasons: [], amount: 10000 });
  });
  it('payouts_paused denies whatever else applies', () => {
    expect(evaluatePolicy(base({ paused: true }))).toMatchObject({ decision: 'deny', reasons: ['payouts_paused'] });
    expect(evaluatePolicy(base({ paused: true, amountArs: 2000 })).reasons).toEqual(['payouts_paused', 'per_tx_limit', 'above_approval_threshold']);
  });
  it('key_allowlist_violation denies a destination outside the key allowlist, by number or resolved alias', () => {
    expect(evaluatePolicy(base({ key: key({ allowlist: [OTHER_CBU] }) }))).toMatchObject({ decision: 'deny', reasons: ['key_allowlist_violation'] });
    expect(evaluatePolicy(base({ key: key({ allowlist: [CBU] }) })).decision).toBe('allow');
    expect(
      evaluatePolicy(base({ destination: 'Mate.Rio', destinationKind: 'ALIAS', destinationAliases: [CBU], key: key({ allowlist: [CBU] }) })).decision,
    ).toBe('allow');
    expect(evaluatePolicy(base({ destination: 'mate.rio', destinationKind: 'ALIAS', key: key({ allowlist: ['MATE.RIO'] }) })).decision).toBe('allow');
  });
  it.each([
    [{ perTxLimit: 5_000 }, 'key_per_tx_limit'],
    [{ dailyLimit: 15_000, usage: { day: 10_000, month: 10_000 } }, 'key_daily_limit'],
    [{ monthlyLimit: 15_000, usage: { day: 0, month: 10_000 } }, 'key_monthly_limit'],
  ] as const)('key limits ask the owner: %j → %s', (over, reason) => {
    expect(evaluatePolicy(base({ key: key(over) }))).toMatchObject({ decision: 'require_approval', reasons: [reason] });
  });
  it('key limits are inclusive and 0 disables them', () => {
    expect(evaluatePolicy(base({ key: key({ perTxLimit: 10_000, dailyLimit: 10_000, monthlyLimit: 10_000 }) })).decision).toBe('allow');
    expect(evaluatePolicy(base({ key: key({ perTxLimit: 0, usage: { day: 1e12, month: 1e12 } }) })).decision).toBe('allow');
  });
  it('a whitelisted destination still counts against the key limits', () => {
    const r = evaluatePolicy(base({ amountArs: 600, thresholds: t({ whitelist: [CBU] }), key: key({ perTxLimit: 50_000 }) }));
    expect(r).toMatchObject({ decision: 'require_approval', reasons: ['key_per_tx_limit'] });
  });
  it('returns every reason together: user and key limits, allowlist, pause', () => {
    const r = evaluatePolicy(
      base({
        amountArs: 2000,
        paused: true,
        usage: { day: 450_000, month: 0 },
        key: key({ allowlist: [OTHER_CBU], perTxLimit: 100_000, dailyLimit: 100_000, usage: { day: 1, month: 1 } }),
      }),
    );
    expect(r.decision).toBe('deny');
    expect(r.reasons).toEqual([
      'key_allowlist_violation',
      'payouts_paused',
      'per_tx_limit',
      'daily_limit',
      'key_per_tx_limit',
      'key_daily_limit',
      'above_approval_threshold',
    ]);
  });
});

describe('the older transfer surface (D32)', () => {
  it('asks for approval at the threshold itself, not only above it', () => {
    const at = base({ amountArs: 500 });
    expect(evaluatePolicy(at).decision).toBe('allow');
    expect(evaluatePolicy({ ...at, approvalAtThreshold: true })).toMatchObject({ decision: 'require_approval', reasons: ['above_approval_threshold'] });
    expect(evaluatePolicy(base({ amountArs: 499.99, approvalAtThreshold: true })).decision).toBe('allow');
  });
});
