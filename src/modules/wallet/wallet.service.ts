import type { AppContext } from '../../context.js';
import { compiled } from '../../db/compiled.js';
import { isUniqueViolation } from '../../db/database.js';
import { isStoreUnavailable } from '../../db/store-errors.js';
import { askRail } from '../rail/rail.answers.js';
import { isValidCuit, normalizeCuit } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import { formatCentavos } from '../../shared/money.js';
import { recordEvent } from '../events/events.service.js';
import type { IncomingAck, TransferLeg } from '../rail/rail.port.js';
import { isKycPendingLegalId } from '../rail/sandbox/sandbox-names.js';
import type { KycStatus, WalletsTable } from './wallet.tables.js';

export const DEPOSITS_LISTING_MAX = 100;

export interface CvuView {
  cvu: string;
  alias: string;
  asset: 'ARS';
}

/** The Deposit resource of the contract (a transfer leg to or from the user's CVU). */
export interface DepositView {
  id: string;
  from: string;
  to: string;
  fromLegalId: string;
  toLegalId: string;
  fromName: string;
  toName: string;
  amount: string;
  currency: string;
  status: string;
  creationTime: string;
  direction: 'credit' | 'debit';
}

/** Every balance, CVU and deposits request reads it (compiled once). */
const walletOfUser = compiled<{ userId: string }, WalletsTable>((db, a) => db.selectFrom('wallets').selectAll().where('user_id', '=', a.userId));

export async function findWallet(ctx: AppContext, userId: string): Promise<WalletsTable | null> {
  return (await walletOfUser.first(ctx.store.db, { userId })) ?? null;
}

/** 422 ONBOARDING_INCOMPLETE; agents meet it too, and only the owner's session can onboard, so it says so. */
export const onboardingIncomplete = () =>
  new AppError(
    'ONBOARDING_INCOMPLETE',
    'The wallet is not open yet: the owner completes onboarding with POST /v1/onboarding, using the owner session from POST /v1/login',
  );

/** The wallet, or 422 ONBOARDING_INCOMPLETE (contract: payouts, balance and cvu need a CVU first). */
export async function requireWallet(ctx: AppContext, userId: string): Promise<WalletsTable> {
  const w = await findWallet(ctx, userId);
  if (!w) throw onboardingIncomplete();
  return w;
}

/** Onboarding twice says where the wallet it opened the first time is shown. */
const ALREADY_ONBOARDED_MESSAGE = "This user has already completed onboarding: GET /v1/cvu shows the wallet's CVU and alias";

/**
 * D10: the rail opens the account (idempotently, keyed by user id, so a retry or a race opens one account) and
 * the wallet row records it. KYC is `verified` in the sandbox except for the magic legal ids (D25).
 */
export async function onboard(
  ctx: AppContext,
  userId: string,
  input: { legal_id: string; legal_name: string },
): Promise<CvuView & { kyc_status: KycStatus }> {
  const legalId = normalizeCuit(input.legal_id.trim());
  if (!isValidCuit(legalId)) {
    throw new AppError('INVALID_REQUEST', 'body.legal_id: not a valid CUIT/CUIL (11 digits with a correct check digit)');
  }
  const legalName = input.legal_name.trim();
  if (await findWallet(ctx, userId)) throw new AppError('ALREADY_ONBOARDED', ALREADY_ONBOARDED_MESSAGE);
  const account = await askRail(ctx, 'account opening', () => ctx.rail.openAccount({ ownerRef: userId, legalId, legalName }));
  const now = ctx.clock.now().toISOString();
  const kyc_status: KycStatus = isKycPendingLegalId(legalId) ? 'pending' : 'verified';
  try {
    // In a transaction of its own, so that a COMMIT whose answer is lost is resolved by asking the server (D42):
    // a lone statement's lost answer would be a 503 for a wallet that exists, and the retry a 409.
    await ctx.store.transaction((tx) =>
      tx
        .insertInto('wallets')
        .values({ user_id: userId, legal_id: legalId, legal_name: legalName, cvu: account.cvu, alias: account.alias, kyc_status, created_at: now, updated_at: now })
        .execute(),
    );
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('ALREADY_ONBOARDED', ALREADY_ONBOARDED_MESSAGE);
    throw e;
  }
  return { cvu: account.cvu, alias: account.alias, asset: 'ARS', kyc_status };
}

export async function setKycStatus(ctx: AppContext, userId: string, status: KycStatus): Promise<{ kyc_status: KycStatus }> {
  await requireWallet(ctx, userId);
  await ctx.store.db
    .updateTable('wallets')
    .set({ kyc_status: status, updated_at: ctx.clock.now().toISOString() })
    .where('user_id', '=', userId)
    .execute();
  return { kyc_status: status };
}

export async function getBalance(ctx: AppContext, userId: string): Promise<{ asset: 'ARS'; available: string }> {
  const w = await requireWallet(ctx, userId);
  return { asset: 'ARS', available: formatCentavos(await askRail(ctx, 'balance', () => ctx.rail.getBalance(w.cvu))) };
}

export async function getCvu(ctx: AppContext, userId: string): Promise<CvuView> {
  const w = await requireWallet(ctx, userId);
  return { cvu: w.cvu, alias: w.alias, asset: 'ARS' };
}

export const toDepositView = (l: TransferLeg): DepositView => ({
  id: l.id,
  from: l.from,
  to: l.to,
  fromLegalId: l.fromLegalId,
  toLegalId: l.toLegalId,
  fromName: l.fromName,
  toName: l.toName,
  amount: formatCentavos(l.amountCentavos),
  currency: l.currency,
  status: l.status,
  creationTime: l.creationTime,
  direction: l.direction,
});

/** Contract: the most recent legs both ways, live from the rail; `[]` (not an error) with no legal id on file. */
export async function listDeposits(ctx: AppContext, userId: string, limit = DEPOSITS_LISTING_MAX): Promise<DepositView[]> {
  const w = await findWallet(ctx, userId);
  if (!w) return [];
  const legs = await askRail(ctx, 'listing', () => ctx.rail.listLegs(w.cvu, Math.min(limit, DEPOSITS_LISTING_MAX)));
  return legs.map(toDepositView);
}

/** How many incoming-credit notices one detection pass takes; the worker loops while passes come back full. */
export const DEPOSIT_DETECTION_BATCH = 100;

/**
 * One detection pass: takes a bounded batch of the rail's incoming-credit notices (completed credits only;
 * reversals of our own failed payouts never get one) and records one `deposit.detected` per leg. Delivery is at
 * least once (a lease can run out, two nodes can overlap), so the event's dedupe key, the leg id, keeps it
 * exactly once. A notice for an account no wallet holds is answered as failed with that reason, not retried.
 * Returns how many notices it took, so `batchPass` runs another pass when the batch was full.
 */
export async function detectDeposits(ctx: AppContext, limit = DEPOSIT_DETECTION_BATCH): Promise<number> {
  const notices = await ctx.rail.takeIncoming(limit);
  if (notices.length === 0) return 0;
  const cvus = [...new Set(notices.map((n) => n.cvu))];
  let wallets;
  try {
    wallets = await ctx.store.db.selectFrom('wallets').select(['user_id', 'cvu', 'alias']).where('cvu', 'in', cvus).execute();
  } catch (err) {
    // D42: the store could not serve (a lock held too long, a lost connection): none of these takes is the
    // notices' fault, so each is given back, as a failed recording is below, when the store can still take that.
    if (isStoreUnavailable(err)) await ctx.rail.ackIncoming(notices.map((n) => ({ handle: n.handle, storeUnavailable: true }))).catch(() => undefined);
    throw err;
  }
  const byCvu = new Map(wallets.map((w) => [w.cvu, w]));
  const acks: IncomingAck[] = [];
  for (const n of notices) {
    const w = byCvu.get(n.cvu);
    if (!w) {
      acks.push({ handle: n.handle, failureReason: `no wallet holds account ${n.cvu}` });
      continue;
    }
    try {
      await ctx.store.transaction((tx) =>
        recordEvent(tx, ctx.clock, {
          userId: w.user_id,
          type: 'deposit.detected',
          data: { ...toDepositView(n.leg), cvu: w.cvu, alias: w.alias },
          dedupeKey: `deposit.detected:${n.leg.id}`,
        }),
      );
      acks.push({ handle: n.handle });
    } catch (err) {
      // Unanswered, the notice comes back when its lease ends; the rail sets it aside if that keeps happening,
      // unless the store was what failed (D42): then the take does not count.
      ctx.log.error({ err, leg: n.leg.id }, 'recording a detected deposit failed');
      if (isStoreUnavailable(err)) acks.push({ handle: n.handle, storeUnavailable: true });
    }
  }
  await ctx.rail.ackIncoming(acks);
  return notices.length;
}
