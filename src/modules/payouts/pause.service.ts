import type { AppContext } from '../../context.js';
import { compiled } from '../../db/compiled.js';
import { afterCommit, waitLongerForLocks, type Executor } from '../../db/database.js';
import type { Principal } from '../auth/auth.service.js';
import { writeAudit } from '../audit/audit.service.js';
import { recordEvent } from '../events/events.service.js';
import { lockWalletForPayout } from '../wallet/wallet.locks.js';
import { FOLLOW_UP_LEASE_MS } from './follow-up-lease.js';
import { toPayoutView, type PayoutView } from './payout.view.js';

export interface PauseView {
  paused: boolean;
  paused_at: string | null;
}

/** The emergency stop's answer (D36): the state, and what had already started toward the bank. */
export interface PauseAnswer extends PauseView {
  /** Payouts whose submission to the rail had started: they may still reach the bank. */
  in_flight: PayoutView[];
}

const pauseOf = compiled<{ user_id: string }, { paused_at: string }>((db, a) => db.selectFrom('payout_pauses').select('paused_at').where('user_id', '=', a.user_id));

export async function pauseState(db: Executor, userId: string): Promise<PauseView> {
  const row = await pauseOf.first(db, { user_id: userId });
  return { paused: !!row, paused_at: row?.paused_at ?? null };
}

/** The user's payouts claimed for submission and not yet known to the rail (D36); the partial index serves it. */
async function inFlight(db: Executor, userId: string): Promise<PayoutView[]> {
  const rows = await db
    .selectFrom('payouts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'approved')
    .where('submission_started_at', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map(toPayoutView);
}

export async function pauseAnswer(db: Executor, userId: string): Promise<PauseAnswer> {
  return { ...(await pauseState(db, userId)), in_flight: await inFlight(db, userId) };
}

/**
 * The owner's emergency stop (D31, D36). Pausing takes the per-user lock that every payout decision, approval and
 * submission claim takes, so once this has answered no transfer toward the rail is started for the user until
 * resume: those already started are listed in `in_flight`. Resuming wakes the payouts left `approved` meanwhile,
 * which the follow-up job then claims and submits. Pausing twice changes nothing and announces nothing.
 */
export async function setPaused(ctx: AppContext, who: Principal, paused: boolean): Promise<PauseAnswer> {
  const now = ctx.clock.now().toISOString();
  return ctx.store.transaction(async (tx) => {
    await waitLongerForLocks(ctx.store, tx);
    await lockWalletForPayout(ctx.store, tx, who.userId);
    const changed = paused
      ? Number((await tx.insertInto('payout_pauses').values({ user_id: who.userId, paused_at: now }).onConflict((oc) => oc.column('user_id').doNothing()).executeTakeFirst()).numInsertedOrUpdatedRows ?? 0)
      : Number((await tx.deleteFrom('payout_pauses').where('user_id', '=', who.userId).executeTakeFirst()).numDeletedRows);
    const state = await pauseAnswer(tx, who.userId);
    if (changed > 0) {
      const { in_flight: _, ...view } = state;
      await recordEvent(tx, ctx.clock, { userId: who.userId, type: paused ? 'payouts.paused' : 'payouts.resumed', data: view });
      await writeAudit(tx, ctx.clock, who, { action: paused ? 'payouts.paused' : 'payouts.resumed', data: paused ? { in_flight: state.in_flight.map((p) => p.id) } : {} });
    }
    if (paused && changed > 0) {
      // Parked at once: an approved payout nothing was sent for, whose next send the rail (BIND's Retry-After, up to
      // 15 minutes) put off, waits for resume and is shown so now, not once the follow-up gets round to it. One due
      // sooner may be held by a follow-up (its lease): that one parks it itself, and its lease is never taken.
      await tx
        .updateTable('payouts')
        .set({ next_check_at: null })
        .where('user_id', '=', who.userId)
        .where('status', '=', 'approved')
        .where('submission_started_at', 'is', null)
        .where('submission_unknown_at', 'is', null)
        .where('next_check_at', '>', new Date(Date.parse(now) + 2 * FOLLOW_UP_LEASE_MS).toISOString())
        .execute();
    }
    if (!paused && changed > 0) {
      const woken = await tx
        .updateTable('payouts')
        .set({ next_check_at: now })
        .where('user_id', '=', who.userId)
        .where('status', '=', 'approved')
        .where('submission_started_at', 'is', null)
        // Only the parked ones: one a follow-up holds (its lease) is that follow-up's to send.
        .where('next_check_at', 'is', null)
        .executeTakeFirst();
      if (Number(woken.numUpdatedRows) > 0) afterCommit(tx, () => ctx.followUpAt?.(now));
    }
    return state;
  });
}
