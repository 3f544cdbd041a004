import type { AppContext } from '../../context.js';
import { isCbu, isCvu, isValidCuit, normalizeCuit } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import { arsToCentavos } from '../../shared/money.js';
import { EXTERNAL_CBU } from '../rail/sandbox/sandbox-names.js';
import { requireWallet, toDepositView, type DepositView } from '../wallet/wallet.service.js';

export async function sandboxDeposit(
  ctx: AppContext,
  userId: string,
  input: { amount_ars: number; from_cbu?: string; from_name?: string; from_legal_id?: string },
): Promise<DepositView> {
  const amount = arsToCentavos(input.amount_ars);
  if (amount === null || amount <= 0) throw new AppError('INVALID_REQUEST', 'body.amount_ars: a positive amount with at most 2 decimals');
  const fromCbu = input.from_cbu ?? EXTERNAL_CBU;
  if (!isCbu(fromCbu) && !isCvu(fromCbu)) throw new AppError('INVALID_REQUEST', 'body.from_cbu: not a valid CBU/CVU (check digits)');
  const fromLegalId = normalizeCuit(input.from_legal_id ?? '20123456786');
  if (!isValidCuit(fromLegalId)) throw new AppError('INVALID_REQUEST', 'body.from_legal_id: not a valid CUIT/CUIL');
  const w = await requireWallet(ctx, userId);
  const leg = await ctx.sandboxRail.depositFromOutside({
    cvu: w.cvu,
    amountCentavos: amount,
    fromCbu,
    fromName: input.from_name ?? 'Depositante Sandbox',
    fromLegalId,
  });
  return toDepositView(leg);
}
