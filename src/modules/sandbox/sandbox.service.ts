import type { AppContext } from '../../context.js';
import { isCbu, isCvu, isValidCuit, normalizeCuit } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { arsToCentavos, formatCentavos } from '../../shared/money.js';
import { recordEvent } from '../events/events.service.js';
import { DEFAULT_DEPOSITOR, OFFRAMP_DEPOSITOR } from '../rail/sandbox/sandbox-names.js';
import { requireWallet, toDepositView, type DepositView } from '../wallet/wallet.service.js';

export async function sandboxDeposit(
  ctx: AppContext,
  userId: string,
  input: { amount_ars: number; from_cbu?: string; from_name?: string; from_legal_id?: string },
): Promise<DepositView> {
  const amount = arsToCentavos(input.amount_ars);
  if (amount === null || amount <= 0) throw new AppError('INVALID_REQUEST', 'body.amount_ars: a positive amount with at most 2 decimals');
  const fromCbu = input.from_cbu ?? DEFAULT_DEPOSITOR.cbu;
  if (!isCbu(fromCbu) && !isCvu(fromCbu)) throw new AppError('INVALID_REQUEST', 'body.from_cbu: not a valid CBU/CVU (check digits)');
  const fromLegalId = normalizeCuit(input.from_legal_id ?? DEFAULT_DEPOSITOR.legalId);
  if (!isValidCuit(fromLegalId)) throw new AppError('INVALID_REQUEST', 'body.from_legal_id: not a valid CUIT/CUIL');
  const w = await requireWallet(ctx, userId);
  const leg = await ctx.sandboxRail.depositFromOutside({
    cvu: w.cvu,
    amountCentavos: amount,
    fromCbu,
    fromName: input.from_name ?? DEFAULT_DEPOSITOR.name,
    fromLegalId,
  });
  return toDepositView(leg);
}

/**
 * Sandbox only: an incoming crypto deposit and its off-ramp to ARS, which credits the wallet (or fails). Emits
 * `crypto.deposit.completed`, then `crypto.offramp.completed` or `crypto.offramp.failed`.
 */
export async function sandboxCrypto(
  ctx: AppContext,
  userId: string,
  input: { asset: 'USDT' | 'USDC'; amount: number; ars_rate?: number; fail?: boolean },
) {
  const w = await requireWallet(ctx, userId);
  const rate = input.ars_rate ?? 1000;
  const arsCentavos = Math.round(input.amount * rate * 100);
  if (!Number.isFinite(arsCentavos) || arsCentavos <= 0) throw new AppError('INVALID_REQUEST', 'body.amount: too small to off-ramp');
  const now = ctx.clock.now();
  const depositId = newId('dep', now);
  const offrampId = newId('trf', now);
  const base = { asset: input.asset, amount: String(input.amount), network: 'sandbox' };
  await ctx.store.transaction((tx) =>
    recordEvent(tx, ctx.clock, { userId, type: 'crypto.deposit.completed', data: { id: depositId, ...base, cvu: w.cvu } }),
  );
  if (input.fail) {
    const data = { id: offrampId, crypto_deposit_id: depositId, ...base, ars_rate: rate, reason: 'sandbox_failure' };
    await ctx.store.transaction((tx) => recordEvent(tx, ctx.clock, { userId, type: 'crypto.offramp.failed', data }));
    return { crypto_deposit_id: depositId, offramp_id: offrampId, status: 'failed' as const, amount_ars: null };
  }
  const leg = await ctx.sandboxRail.depositFromOutside({
    cvu: w.cvu,
    amountCentavos: arsCentavos,
    fromCbu: OFFRAMP_DEPOSITOR.cbu,
    fromName: OFFRAMP_DEPOSITOR.name,
    fromLegalId: OFFRAMP_DEPOSITOR.legalId,
  });
  const data = {
    id: offrampId,
    crypto_deposit_id: depositId,
    ...base,
    ars_rate: rate,
    amount_ars: formatCentavos(arsCentavos),
    deposit: toDepositView(leg),
  };
  await ctx.store.transaction((tx) => recordEvent(tx, ctx.clock, { userId, type: 'crypto.offramp.completed', data }));
  return { crypto_deposit_id: depositId, offramp_id: offrampId, status: 'completed' as const, amount_ars: formatCentavos(arsCentavos) };
}
