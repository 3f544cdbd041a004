import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { recordEvent, type EventType } from '../events/events.service.js';
import { completeClaim, releaseKey } from '../idempotency/idempotency.service.js';
import type { RailTransfer } from '../rail/rail.port.js';
import { loadPayout, toPayoutView } from './payout.view.js';
import type { PayoutStatus, PayoutsTable } from './payouts.tables.js';

/** How long an `approved` attempt may wait for its in-request submission before the follow-up job takes it. */
export const SUBMISSION_GRACE_MS = 30_000;

/**
 * Moves an attempt from one of `from` to `to` with a conditional update and writes its event in the same
 * transaction (D24). Returns the new row, or null when the attempt was no longer in `from` (someone else won).
 */
export async function transition(
  ctx: AppContext,
  tx: Tx,
  id: string,
  from: PayoutStatus[],
  to: PayoutStatus,
  event: EventType,
  set: Partial<PayoutsTable> = {},
): Promise<PayoutsTable | null> {
  const now = ctx.clock.now().toISOString();
  const final = to === 'rejected' || to === 'expired' || to === 'confirmed' || to === 'failed';
  const res = await tx
    .updateTable('payouts')
    .set({ ...set, status: to, updated_at: now, ...(final ? { resolved_at: now, next_check_at: null } : {}) })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return null;
  const row = (await loadPayout(tx, id))!;
  await recordEvent(tx, ctx.clock, { userId: row.user_id, type: event, data: toPayoutView(row) });
  return row;
}

export const createdBody = (p: PayoutsTable) => ({ id: p.id, status: p.status, decision: p.decision });

async function markSubmitted(ctx: AppContext, id: string, t: RailTransfer): Promise<void> {
  await ctx.store.db.transaction().execute(async (tx) => {
    const now = ctx.clock.now();
    const row = await transition(ctx, tx, id, ['approved'], 'submitted', 'payout.submitted', {
      provider_transfer_id: t.providerTransferId,
      submitted_at: now.toISOString(),
      recipient_name: t.counterpartyName,
      recipient_legal_id: t.counterpartyLegalId,
      recipient_account: t.counterpartyAccount,
      next_check_at: now.toISOString(),
    });
    // The request that created an allowed payout answers 201 "submitted"; a recovered one stores that answer.
    if (row) await completeClaim(tx, { payoutId: id }, 201, createdBody(row));
  });
}

/** A failure is an error answer, and errors are not stored (D18): a key still in flight for it is freed. */
async function markFailed(ctx: AppContext, id: string, reason: string) {
  await ctx.store.db.transaction().execute(async (tx) => {
    const row = await transition(ctx, tx, id, ['approved', 'submitted'], 'failed', 'payout.failed', { failure_reason: reason });
    if (row) {
      const keyRow = await tx.selectFrom('idempotency_keys').select('key_hash').where('payout_id', '=', id).executeTakeFirst();
      if (keyRow) await releaseKey(tx, keyRow.key_hash, { evenWithPayout: true });
    }
  });
}

/** Applies what the rail says about a transfer we know it has. */
async function applyRailStatus(ctx: AppContext, p: PayoutsTable, t: RailTransfer): Promise<void> {
  if (p.status === 'approved') await markSubmitted(ctx, p.id, t);
  if (t.status === 'COMPLETED') {
    await ctx.store.db.transaction().execute((tx) => transition(ctx, tx, p.id, ['submitted'], 'confirmed', 'payout.confirmed'));
  } else if (t.status === 'FAILED') {
    await markFailed(ctx, p.id, t.failureReason ?? 'rail_failed');
  }
}

export type SubmitResult =
  | { kind: 'submitted' }
  | { kind: 'rejected'; reason: string; message: string }
  /** The rail did not say; the attempt stays `approved` and the follow-up job reconciles it. */
  | { kind: 'unknown' };

/**
 * Submits an `approved` attempt to the rail with its own reference (D19). A rejection fails the attempt; an
 * unknown outcome is reconciled by asking the rail about that reference, never by a blind resend.
 */
export async function submitPayout(ctx: AppContext, id: string): Promise<SubmitResult> {
  const p = await loadPayout(ctx.store.db, id);
  if (!p || p.status !== 'approved') return { kind: 'submitted' };
  let outcome;
  try {
    outcome = await ctx.rail.submitTransfer({
      reference: p.rail_reference,
      fromCvu: p.origin_cvu,
      toKind: p.destination_kind,
      to: p.destination,
      amountCentavos: Number(p.amount),
      description: p.note ?? undefined,
    });
  } catch (err) {
    ctx.log.warn({ err, payout: id }, 'rail submission failed without an answer');
    outcome = { kind: 'unknown' as const, message: 'rail error' };
  }
  if (outcome.kind === 'accepted') {
    await applyRailStatus(ctx, p, outcome.transfer);
    return { kind: 'submitted' };
  }
  if (outcome.kind === 'rejected') {
    await markFailed(ctx, id, outcome.reason);
    return { kind: 'rejected', reason: outcome.reason, message: outcome.message };
  }
  return (await reconcile(ctx, id)) ? { kind: 'submitted' } : { kind: 'unknown' };
}

/**
 * Asks the rail about the attempt's reference. Returns true when the rail knows the transfer (and the attempt
 * now reflects it); false when it does not (or cannot say), in which case the attempt waits for the next check.
 */
export async function reconcile(ctx: AppContext, id: string): Promise<boolean> {
  const p = await loadPayout(ctx.store.db, id);
  if (!p) return false;
  let t: RailTransfer | null = null;
  try {
    t = await ctx.rail.getTransfer(p.rail_reference);
  } catch (err) {
    ctx.log.warn({ err, payout: id }, 'rail status query failed');
  }
  if (t) await applyRailStatus(ctx, p, t);
  // Still in flight (unknown to the rail, or not settled yet): look again on the next pass.
  await ctx.store.db
    .updateTable('payouts')
    .set({ next_check_at: new Date(ctx.clock.now().getTime() + ctx.config.jobsIntervalMs).toISOString() })
    .where('id', '=', id)
    .where('status', 'in', ['approved', 'submitted'])
    .execute();
  return t !== null;
}

/**
 * The follow-up pass over attempts in flight: `approved` ones past their grace (a crash between approval and
 * submission, an unknown outcome) are reconciled and, if the rail never got them, submitted with the same
 * reference; `submitted` ones are polled until the rail confirms or fails them.
 */
export async function followUpPayouts(ctx: AppContext, limit = 200): Promise<void> {
  const now = ctx.clock.now().toISOString();
  const due = await ctx.store.db
    .selectFrom('payouts')
    .select(['id', 'status'])
    .where('status', 'in', ['approved', 'submitted'])
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit)
    .execute();
  for (const p of due) {
    try {
      const known = await reconcile(ctx, p.id);
      if (!known && p.status === 'approved') await submitPayout(ctx, p.id);
    } catch (err) {
      ctx.log.error({ err, payout: p.id }, 'payout follow-up failed');
    }
  }
}
