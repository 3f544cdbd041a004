import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../context.js';
import { isStoreUnavailable } from '../../db/store-errors.js';
import { inferDestinationKind } from '../../shared/ar-identifiers.js';
import { AppError, isAppError } from '../../shared/errors.js';
import { arsToCentavos, centavosToArs } from '../../shared/money.js';
import { expireApprovalIfDue } from '../approvals/approvals.service.js';
import type { Principal } from '../auth/auth.service.js';
import { followUpIfDue } from '../payouts/payout.follow-up.js';
import { replayedFailure, requestPayout } from '../payouts/payout.request.js';
import { loadPayout } from '../payouts/payout.view.js';
import type { PayoutsTable } from '../payouts/payouts.tables.js';

/** D32: the longest a transfer request is held open for the owner's decision. */
export const TRANSFER_HOLD_MS = 5 * 60 * 1000;
const POLL_MS = 200;

export interface TransferInput {
  amount: number;
  destination: string;
  description?: string;
}

/** The older surface's Transfer: a view of one payout attempt (D32). */
export interface TransferView {
  id: string;
  status: string;
  amount: number;
  destination: string;
  description: string | null;
  created_at: string;
  approved_at?: string | null;
  completed_at: string | null;
  failure_reason?: string | null;
}

/**
 * `completed` and `approved` (completed through the owner's approval) are the contract's; while a transfer is
 * not final, GET answers how it stands (`pending_approval`, `processing`) and its end if not completed.
 */
function toView(p: PayoutsTable): TransferView {
  const held = p.decision === 'require_approval';
  const status =
    p.status === 'confirmed'
      ? held
        ? 'approved'
        : 'completed'
      : p.status === 'approved' || p.status === 'submitted'
        ? 'processing'
        : p.status;
  return {
    id: p.id,
    status,
    amount: centavosToArs(Number(p.amount)),
    destination: p.destination,
    description: p.note,
    created_at: p.created_at,
    ...(held ? { approved_at: p.approved_at } : {}),
    completed_at: p.status === 'confirmed' ? p.resolved_at : null,
    ...(p.failure_reason ? { failure_reason: p.failure_reason } : {}),
  };
}

/** The contract's error for an attempt that ended without completing. */
function endError(p: PayoutsTable): AppError {
  if (p.status === 'expired') return new AppError('expired', 'The owner did not decide in time; the transfer was not made', { id: p.id });
  if (p.status === 'failed' && p.failure_reason === 'insufficient_funds') {
    return new AppError('insufficient_balance', 'The wallet balance does not cover this transfer', { id: p.id });
  }
  const why = p.status === 'rejected' ? 'The owner rejected the transfer' : `The transfer was not made: ${p.failure_reason ?? p.status}`;
  return new AppError('rejected', why, { id: p.id, ...(p.failure_reason ? { reason: p.failure_reason } : {}) });
}

/** Maps the payout engine's refusals to the older surface's codes (D32). */
function mapRefusal(e: unknown): unknown {
  if (!isAppError(e)) return e;
  const reasons = (e.details?.reasons as string[] | undefined) ?? [];
  if (e.code === 'PAYOUT_DENIED') {
    if (reasons.includes('destination_invalid')) return new AppError('invalid_destination', 'The destination is not a valid CBU, CVU or known alias', { reasons });
    if (reasons.includes('key_allowlist_violation')) {
      return new AppError('allowlist_violation', "The destination is not in this API key's allowlist", { reasons });
    }
    return new AppError('rejected', `The transfer was refused: ${reasons.join(', ')}`, { reasons });
  }
  if (e.code === 'WITHDRAW_FAILED') {
    return e.details?.reason === 'insufficient_funds'
      ? new AppError('insufficient_balance', 'The wallet balance does not cover this transfer', e.details)
      : new AppError('rejected', e.message, e.details);
  }
  return e;
}

/**
 * `POST /v1/transfers` (D32): the same engine as withdraws, answering once the payout is completed. A transfer
 * that needs approval is held open until the owner decides (on any node: the hold reads the store), at most five
 * minutes; then the approval expires and the answer is 408. A client that goes away loses nothing: the payout
 * carries on and `GET /v1/transfers/{id}` tells how it ended. `onReplay` is called as soon as the key turns out to
 * be an earlier request's, so that whatever the answer is, a 201 or the failure it ended in, it says so (D18, D37).
 */
export async function createTransfer(
  ctx: AppContext,
  who: Principal,
  input: TransferInput,
  idempotencyKey: string | undefined,
  signal?: AbortSignal,
  onReplay?: () => void,
): Promise<{ body: TransferView; replayed: boolean }> {
  const cents = arsToCentavos(input.amount);
  if (cents === null || cents < 100) throw new AppError('INVALID_REQUEST', 'body.amount: at least 1, with at most 2 decimals');
  const destination = input.destination.trim();
  let started;
  try {
    started = await requestPayout(
      ctx,
      who,
      { amount_ars: input.amount, destination, destination_kind: inferDestinationKind(destination), note: input.description },
      idempotencyKey,
      { approvalTtlSeconds: TRANSFER_HOLD_MS / 1000, approvalAtThreshold: true, scope: 'transfer:write' },
    );
  } catch (e) {
    throw mapRefusal(e);
  }
  if (started.replayed) onReplay?.();
  // D37: a retry of a transfer that failed at the rail answers that failure again (402), never a second attempt.
  const failed = replayedFailure(started);
  if (failed) throw mapRefusal(failed);
  const id = String(started.body.id);
  const heldFrom = ctx.clock.now();
  const p = await holdForOutcome(ctx, id, heldFrom, signal);
  // The store never answered during the hold: the attempt as it was asked, which stands (D42: no 503 once kept).
  if (!p) return { body: askedView(id, started.body, input, heldFrom), replayed: started.replayed };
  if (p.status === 'confirmed') return { body: toView(p), replayed: started.replayed };
  if (p.status === 'rejected' || p.status === 'expired' || p.status === 'failed') throw endError(p);
  // Still moving when the hold ends or the client left: say so rather than guess.
  return { body: toView(p), replayed: started.replayed };
}

/**
 * Follows the attempt until it ends, the hold ends or the client leaves. The attempt has committed, so a store that
 * fails meanwhile (a failover) must not turn the answer into a 503, which says nothing was kept and invites a
 * retry under a new key: the hold waits for the store and ends with the attempt as last seen.
 */
async function holdForOutcome(ctx: AppContext, id: string, heldFrom: Date, signal?: AbortSignal): Promise<PayoutsTable | undefined> {
  let last: PayoutsTable | undefined;
  let failing = false;
  for (;;) {
    try {
      const p = (await loadPayout(ctx.store.db, id))!;
      failing = false;
      last = p;
      const heldFor = ctx.clock.now().getTime() - Date.parse(p.created_at);
      // An approval not due yet (a replayed withdraw's, made with a longer APPROVAL_TTL_SECONDS) is left to its own
      // window: the hold ends below with the attempt as it stands, rather than asking again without pause.
      if (p.status === 'pending_approval' && heldFor >= TRANSFER_HOLD_MS && p.approval_id && (await expireApprovalIfDue(ctx, p.approval_id))) continue;
      if (!['pending_approval', 'approved', 'submitted'].includes(p.status) || signal?.aborted || heldFor >= TRANSFER_HOLD_MS + 60_000) return p;
      await followUpIfDue(ctx, p);
    } catch (err) {
      if (!isStoreUnavailable(err)) throw err;
      if (!failing) ctx.log.warn({ err, payout: id }, 'the store failed while a transfer was held; waiting for it');
      failing = true;
      const from = last ? Date.parse(last.created_at) : heldFrom.getTime();
      if (signal?.aborted || ctx.clock.now().getTime() >= from + TRANSFER_HOLD_MS + 60_000) return last;
    }
    // While the store fails, asked less often: every held transfer polls it.
    await sleep(failing ? 5 * POLL_MS : POLL_MS, undefined, { ref: false }).catch(() => {});
  }
}

/**
 * The transfer as it was asked and as `requestPayout` answered it (its answer holds only the id and status), for a
 * hold during which the store never answered: `created_at` is then when the hold began.
 */
function askedView(id: string, answered: Record<string, unknown>, input: TransferInput, heldFrom: Date): TransferView {
  const status = String(answered.status);
  const completed = answered.decision === 'require_approval' ? 'approved' : 'completed';
  return {
    id,
    status: status === 'approved' || status === 'submitted' ? 'processing' : status === 'confirmed' ? completed : status,
    amount: input.amount,
    destination: input.destination.trim(),
    description: input.description ?? null,
    created_at: heldFrom.toISOString(),
    completed_at: null,
  };
}

/** `GET /v1/transfers/{id}`: the same shape as the POST answer; another user's is not found. */
export async function getTransfer(ctx: AppContext, userId: string, id: string): Promise<TransferView> {
  const p = await loadPayout(ctx.store.db, id);
  if (!p || p.user_id !== userId) throw new AppError('NOT_FOUND', 'Transfer not found');
  return toView(p);
}
