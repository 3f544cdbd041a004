import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { isCbu, isCvu, isValidCuit, normalizeCuit } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { arsToCentavos, formatCentavos, MAX_CENTAVOS } from '../../shared/money.js';
import { writeAudit } from '../audit/audit.service.js';
import type { Principal } from '../auth/auth.service.js';
import { recordEvent } from '../events/events.service.js';
import { BalanceCeilingReached } from '../rail/sandbox/sandbox-ledger.js';
import { DEFAULT_DEPOSITOR, OFFRAMP_DEPOSITOR } from '../rail/sandbox/sandbox-names.js';
import { requireWallet, toDepositView, type DepositView } from '../wallet/wallet.service.js';

/** D5: a credit that would take the wallet past the integers the service counts exactly answers 400 naming the field. */
const refuseOverCeiling =
  (field: string) =>
  (err: unknown): never => {
    if (err instanceof BalanceCeilingReached) {
      throw new AppError('INVALID_REQUEST', `body.${field}: the wallet cannot hold that much (at most ${formatCentavos(MAX_CENTAVOS)} ARS)`);
    }
    throw err;
  };

/** The most one sandbox arrival (a deposit, or an off-ramp's converted amount) may bring, in ARS. */
export const SANDBOX_ARRIVAL_MAX_ARS = 1e11;

/** The money, its `deposit.detected` notice and the owner's activity entry commit together. */
export async function sandboxDeposit(
  ctx: AppContext,
  who: Principal,
  input: { amount_ars: number; from_cbu?: string; from_name?: string; from_legal_id?: string },
): Promise<DepositView> {
  const amount = arsToCentavos(input.amount_ars);
  if (amount === null || amount <= 0) throw new AppError('INVALID_REQUEST', 'body.amount_ars: a positive amount with at most 2 decimals');
  const fromCbu = input.from_cbu ?? DEFAULT_DEPOSITOR.cbu;
  if (!isCbu(fromCbu) && !isCvu(fromCbu)) throw new AppError('INVALID_REQUEST', 'body.from_cbu: not a valid CBU/CVU (check digits)');
  const fromLegalId = normalizeCuit(input.from_legal_id ?? DEFAULT_DEPOSITOR.legalId);
  if (!isValidCuit(fromLegalId)) throw new AppError('INVALID_REQUEST', 'body.from_legal_id: not a valid CUIT/CUIL');
  const w = await requireWallet(ctx, who.userId);
  const leg = await ctx.sandboxRail
    .depositFromOutside(
      { cvu: w.cvu, amountCentavos: amount, fromCbu, fromName: input.from_name ?? DEFAULT_DEPOSITOR.name, fromLegalId },
      // The entry carries what was asked, as a payout's does, so the owner's activity shows the amount.
      (tx, credit) => writeAudit(tx, ctx.clock, who, { action: 'sandbox.deposit', subjectId: credit.id, data: { request: { amount_ars: input.amount_ars } } }),
    )
    .catch(refuseOverCeiling('amount_ars'));
  return toDepositView(leg);
}

/**
 * Sandbox only: an incoming crypto deposit and its off-ramp to ARS, which credits the wallet (or fails). Emits
 * `crypto.deposit.completed`, then `crypto.offramp.completed` or `crypto.offramp.failed`. The money, both events
 * and the owner's activity entry commit in one transaction: all of it or none (a failure leaves nothing half done).
 */
export async function sandboxCrypto(
  ctx: AppContext,
  who: Principal,
  input: { asset: 'USDT' | 'USDC'; amount: number; ars_rate?: number; fail?: boolean },
) {
  const userId = who.userId;
  const w = await requireWallet(ctx, userId);
  const rate = input.ars_rate ?? 1000;
  const arsCentavos = Math.round(input.amount * rate * 100);
  if (!Number.isFinite(arsCentavos) || arsCentavos <= 0) throw new AppError('INVALID_REQUEST', 'body.amount: too small to off-ramp');
  // amount × rate can reach 1e16 centavos, past what the ledger and the history count exactly (D5).
  if (arsCentavos > SANDBOX_ARRIVAL_MAX_ARS * 100) {
    throw new AppError('INVALID_REQUEST', `body.amount: worth more than ${SANDBOX_ARRIVAL_MAX_ARS} ARS at this rate, the most one sandbox deposit may bring`);
  }
  const now = ctx.clock.now();
  const depositId = newId('dep', now);
  const offrampId = newId('trf', now);
  const base = { asset: input.asset, amount: String(input.amount), network: 'sandbox' };
  const status = input.fail ? ('failed' as const) : ('completed' as const);
  const recordAll = async (tx: Tx, offramp: { type: 'crypto.offramp.completed' | 'crypto.offramp.failed'; data: Record<string, unknown> }) => {
    await recordEvent(tx, ctx.clock, { userId, type: 'crypto.deposit.completed', data: { id: depositId, ...base, cvu: w.cvu } });
    await recordEvent(tx, ctx.clock, { userId, ...offramp });
    await writeAudit(tx, ctx.clock, who, { action: 'sandbox.crypto', subjectId: offrampId, data: { crypto_deposit_id: depositId, ...base, status } });
  };
  if (input.fail) {
    const data = { id: offrampId, crypto_deposit_id: depositId, ...base, ars_rate: rate, reason: 'sandbox_failure' };
    await ctx.store.transaction((tx) => recordAll(tx, { type: 'crypto.offramp.failed', data }));
    return { crypto_deposit_id: depositId, offramp_id: offrampId, status, amount_ars: null };
  }
  await ctx.sandboxRail
    .depositFromOutside(
      { cvu: w.cvu, amountCentavos: arsCentavos, fromCbu: OFFRAMP_DEPOSITOR.cbu, fromName: OFFRAMP_DEPOSITOR.name, fromLegalId: OFFRAMP_DEPOSITOR.legalId },
      (tx, leg) =>
        recordAll(tx, {
          type: 'crypto.offramp.completed',
          data: { id: offrampId, crypto_deposit_id: depositId, ...base, ars_rate: rate, amount_ars: formatCentavos(arsCentavos), deposit: toDepositView(leg) },
        }),
    )
    .catch(refuseOverCeiling('amount'));
  return { crypto_deposit_id: depositId, offramp_id: offrampId, status, amount_ars: formatCentavos(arsCentavos) };
}
