import type { AppContext } from '../../context.js';
import { compiled, compiledByShape, compiledForList } from '../../db/compiled.js';
import { afterCommit, type Tx } from '../../db/database.js';
import { recordEvent, type EventType } from '../events/events.service.js';
import { AppError } from '../../shared/errors.js';
import { completeClaimOfPayout, effectiveKey } from '../idempotency/idempotency.service.js';
import { RailBusyError, type RailTransfer } from '../rail/rail.port.js';
import { lockWalletForPayout } from '../wallet/wallet.locks.js';
import { pauseState } from './pause.service.js';
import { toPayoutView } from './payout.view.js';
import type { PayoutStatus, PayoutsTable } from './payouts.tables.js';
import { addUsage } from './usage.js';

/** When the follow-up job takes over an attempt approved now, should its in-request submission not finish. */
export const afterGrace = (ctx: AppContext, now: Date): string => new Date(now.getTime() + ctx.config.payoutSubmissionGraceMs).toISOString();

/** Statuses that give the attempt's amount back to the day's and month's usage (D16). */
const RELEASES_USAGE: PayoutStatus[] = ['rejected', 'expired', 'failed'];
/**
 * D19: how long after a send whose answer never came the bank may still list it. Until then a refusal of another
 * send of the same reference does not fail the attempt (the first may be at the bank); past it, the bank having
 * listed nothing under the reference, that send never reached it and a refusal is final.
 */
export const IN_DOUBT_MS = 60 * 60_000;
/** Within that hour, how long after a refused send the bank is asked again (and, if it still has nothing, sent again). */
export const IN_DOUBT_RECHECK_MS = 5 * 60_000;

/** One compiled update per shape of transition: which columns it sets, from how many statuses. */
const transitionStatement = compiledByShape<{ columns: string[]; from: number }, Record<string, unknown>, PayoutsTable>((db, a, shape) =>
  db
    .updateTable('payouts')
    .set(Object.fromEntries(shape.columns.map((c) => [c, a[c]])))
    .where('id', '=', a.id as string)
    .where('status', 'in', Array.from({ length: shape.from }, (_, i) => a[`from${i}`] as PayoutStatus))
    .returningAll(),
);

/**
 * Moves an attempt from one of `from` to `to` with a conditional update, writing its event (D24) and its usage
 * change (D16) in the same transaction. Returns the new row, or null when the attempt was no longer in `from`
 * (someone else won).
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
  const values: Record<string, unknown> = { ...set, status: to, updated_at: now, ...(final ? { resolved_at: now, next_check_at: null } : {}) };
  const columns = Object.keys(values).filter((c) => values[c] !== undefined);
  const args: Record<string, unknown> = { ...values, id, ...Object.fromEntries(from.map((s, i) => [`from${i}`, s])) };
  const row = (await transitionStatement({ columns, from: from.length }).run(tx, args)).rows[0];
  if (!row) return null;
  if (RELEASES_USAGE.includes(to)) await addUsage(tx, row, -1);
  await recordEvent(tx, ctx.clock, { userId: row.user_id, type: event, data: toPayoutView(row) });
  if (final) afterCommit(tx, () => ctx.metrics.payoutFinished(to));
  return row;
}

const finishManyStatement = compiledForList<{ from: PayoutStatus; to: PayoutStatus; now: string }, PayoutsTable>((db, a, ids) =>
  db
    .updateTable('payouts')
    .set({ status: a.to, updated_at: a.now, resolved_at: a.now, next_check_at: null })
    .where('id', 'in', ids)
    .where('status', '=', a.from)
    .returningAll(),
);

/**
 * `transition` for many attempts at once, for a final status that needs nothing but the status change and
 * its event (the follow-up's confirmations): one update per list of ids instead of one per attempt, then each
 * attempt's event. Returns the rows it moved; an attempt no longer in `from` is left out.
 */
export async function finishMany(ctx: AppContext, tx: Tx, ids: readonly string[], from: PayoutStatus, to: 'confirmed', event: EventType): Promise<PayoutsTable[]> {
  const now = ctx.clock.now().toISOString();
  const { rows } = await finishManyStatement.run(tx, ids, { from, to, now });
  for (const row of rows) await recordEvent(tx, ctx.clock, { userId: row.user_id, type: event, data: toPayoutView(row) });
  afterCommit(tx, () => {
    for (const _ of rows) ctx.metrics.payoutFinished(to);
  });
  return rows;
}

export const createdBody = (p: Pick<PayoutsTable, 'id' | 'status' | 'decision'>) => ({ id: p.id, status: p.status, decision: p.decision });

const keyHashOf = (p: PayoutsTable) => effectiveKey(p.user_id, p.idempotency_key);

/**
 * When to look at an attempt in flight next: when the rail can have settled it, else after a job interval; never
 * before `notBefore`, the time a rail that turned us away (429/503 with Retry-After) said to come back.
 */
export function nextCheck(ctx: AppContext, t?: RailTransfer | null, notBefore?: string): string {
  const soon = ctx.clock.now().getTime() + ctx.config.jobsIntervalMs;
  const settles = t?.settlesAfter ? Date.parse(t.settlesAfter) : NaN;
  const at = Number.isFinite(settles) ? Math.max(settles, ctx.clock.now().getTime()) : soon;
  const wait = notBefore ? Date.parse(notBefore) : NaN;
  return new Date(Number.isFinite(wait) ? Math.max(at, wait) : at).toISOString();
}

/** The 502 a request answers for an attempt that failed (D19), and what its idempotency key replays (D37). */
export function withdrawFailed(payoutId: string, reason: string, message = `The payout failed: ${reason}`): AppError {
  return new AppError('WITHDRAW_FAILED', message, { payout_id: payoutId, reason });
}

/**
 * D37: an attempt binds its key for 24 hours whatever its outcome. A failed attempt whose request was not answered
 * yet (its claim still in flight) stores the 502 that request answers, so a retry replays it rather than pay again.
 */
export async function bindKeyToFailure(tx: Tx, p: PayoutsTable, err: AppError): Promise<void> {
  await completeClaimOfPayout(tx, keyHashOf(p), p.id, err.statusCode, err.toBody());
}

/**
 * The rail refused the attempt at submission: it fails, and the 502 its request answers is what its key replays.
 * Unless another send of it may be at the bank (D19: `submission_unknown_at`, set when a send's answer never came
 * and when the follow-up claims an attempt whose sender may still be waiting): the refusal says nothing about that
 * one, and failing the attempt would give its limits back and invite the agent to pay again while the money may
 * move. Then null: nothing changes. Read under the per-user lock the follow-up's claim takes, so no send starts
 * between this look and the failure.
 */
async function markRejected(ctx: AppContext, p: PayoutsTable, reason: string, message: string): Promise<AppError | null> {
  const err = withdrawFailed(p.id, reason, `The bank rail rejected the payout: ${message}`);
  const failed = await ctx.store.transaction(async (tx) => {
    await lockWalletForPayout(ctx.store, tx, p.user_id);
    const now = await tx.selectFrom('payouts').select('submission_unknown_at').where('id', '=', p.id).executeTakeFirst();
    const since = now?.submission_unknown_at ?? null;
    if (since !== null && ctx.clock.now().getTime() < Date.parse(since) + IN_DOUBT_MS) return false;
    const row = await transition(ctx, tx, p.id, ['approved', 'submitted'], 'failed', 'payout.failed', { failure_reason: reason });
    if (row) await bindKeyToFailure(tx, row, err);
    return true;
  });
  return failed ? err : null;
}

/**
 * D36: claims an `approved` attempt for submission, under the per-user lock, after re-checking the pause: every
 * path that would send an attempt the rail does not have (the follow-up after a crash or a lost submission) goes
 * through here; the request and the approval claim inside their own transaction. Returns the claimed row, or null
 * when it was kept back (paused) or is no longer `approved`.
 *
 * An attempt still claimed from before (`submission_started_at`) may have reached the bank: its sender died or is
 * still waiting between the send and the answer, and a bank can act on a request it does not list yet. It is marked
 * `submission_unknown_at`; while paused it stays in flight (as the pause answered it), is looked at again, and is
 * never shown as waiting nor canceled; after resume it is sent again with the same reference. Only an attempt
 * nothing was sent for (never claimed, or its send turned away) is parked while paused: no next check, waiting for
 * resume (which wakes it) or the owner's cancel.
 */
export async function claimForSubmission(ctx: AppContext, p: PayoutsTable): Promise<PayoutsTable | null> {
  const mayBeAtBank = p.submission_started_at !== null || p.submission_unknown_at !== null;
  return ctx.store.transaction(async (tx) => {
    await lockWalletForPayout(ctx.store, tx, p.user_id);
    const paused = (await pauseState(tx, p.user_id)).paused;
    const now = ctx.clock.now().toISOString();
    const unknownSince = mayBeAtBank ? { submission_unknown_at: p.submission_unknown_at ?? now } : {};
    const q = tx.updateTable('payouts').where('id', '=', p.id).where('status', '=', 'approved');
    if (paused) {
      const parked = mayBeAtBank ? 0 : Number((await q.where('submission_started_at', 'is', null).set({ next_check_at: null, updated_at: now }).executeTakeFirst()).numUpdatedRows);
      if (parked === 0) await q.set({ ...unknownSince, next_check_at: nextCheck(ctx), updated_at: now }).executeTakeFirst();
      return null;
    }
    return (await q.set({ ...unknownSince, submission_started_at: now, updated_at: now }).returningAll().executeTakeFirst()) ?? null;
  });
}

/**
 * Applies what the rail says about a transfer it has, in one transaction: `approved` → `submitted` (storing the
 * request's 201 for an attempt recovered by the job) and, if the rail already settled it, on to `confirmed` or
 * `failed`. Returns the 201 body when this call moved the attempt to `submitted`.
 */
export async function applyRailStatus(ctx: AppContext, p: PayoutsTable, t: RailTransfer): Promise<Record<string, unknown> | null> {
  return ctx.store.transaction((tx) => applyRailStatusIn(ctx, tx, p, t));
}

/** The order in which transactions that change several attempts take their rows: by user, then by attempt. */
export const lockOrder = (p: Pick<PayoutsTable, 'user_id' | 'id'>): string => `${p.user_id}\u0000${p.id}`;

/** `applyRailStatus` inside the caller's transaction (the follow-up job applies a batch in one). */
export async function applyRailStatusIn(ctx: AppContext, tx: Tx, p: PayoutsTable, t: RailTransfer): Promise<Record<string, unknown> | null> {
  let body: Record<string, unknown> | null = null;
  // A transfer the rail already failed is never announced as submitted: its request answers 502 (below).
  if (p.status === 'approved' && t.status !== 'FAILED') {
    const row = await transition(ctx, tx, p.id, ['approved'], 'submitted', 'payout.submitted', {
      provider_transfer_id: t.providerTransferId,
      coelsa_id: t.coelsaId, // D43: absent (so not written) when the rail gives none
      submitted_at: ctx.clock.now().toISOString(),
      recipient_name: t.counterpartyName ?? p.recipient_name,
      recipient_legal_id: t.counterpartyLegalId ?? p.recipient_legal_id,
      recipient_account: t.counterpartyAccount ?? p.recipient_account,
      next_check_at: nextCheck(ctx, t),
    });
    if (row) {
      body = createdBody(row);
      await completeClaimOfPayout(tx, keyHashOf(row), row.id, 201, body);
      // Confirmed as soon as the rail can have settled it, not at the follow-up's next interval.
      if (row.next_check_at && t.status === 'IN_PROGRESS') afterCommit(tx, () => ctx.followUpAt?.(row.next_check_at!));
    }
  }
  if (t.status === 'COMPLETED') {
    await transition(ctx, tx, p.id, ['submitted'], 'confirmed', 'payout.confirmed', { coelsa_id: t.coelsaId });
  } else if (t.status === 'FAILED') {
    const row = await transition(ctx, tx, p.id, ['approved', 'submitted'], 'failed', 'payout.failed', {
      failure_reason: t.failureReason ?? 'rail_failed',
      provider_transfer_id: t.providerTransferId,
      coelsa_id: t.coelsaId,
    });
    if (row) await bindKeyToFailure(tx, row, withdrawFailed(row.id, row.failure_reason ?? 'rail_failed'));
  } else if (p.status === 'submitted') {
    await reschedule(tx, p.id, nextCheck(ctx, t));
  }
  return body;
}

const rescheduleCheck = compiled<{ id: string; at: string }>((db, a) =>
  db.updateTable('payouts').set({ next_check_at: a.at }).where('id', '=', a.id).where('status', 'in', ['approved', 'submitted']),
);

export async function reschedule(db: Tx | AppContext['store']['db'], id: string, at: string): Promise<void> {
  await rescheduleCheck.run(db, { id, at });
}

/** The account the payout goes to: the one resolved when it was requested (D28), so a re-pointed alias cannot redirect it. */
function payee(p: PayoutsTable): { toKind: PayoutsTable['destination_kind']; to: string } {
  if (!p.recipient_account) return { toKind: p.destination_kind, to: p.destination };
  return { toKind: p.recipient_account.startsWith('000') ? 'CVU' : 'CBU', to: p.recipient_account };
}

export type SubmitResult =
  | { kind: 'submitted'; body: Record<string, unknown> | null }
  /** The rail refused it: the attempt failed; `error` is the 502 to answer (stored for its key, D37). */
  | { kind: 'rejected'; error: AppError }
  /** The rail did not say; the attempt stays `approved` and the follow-up job reconciles it. */
  | { kind: 'unknown' };

/**
 * Submits an `approved` attempt to the rail with its own reference (D19). A rejection fails the attempt; an
 * unknown outcome is reconciled by asking the rail about that reference, never by a blind resend. Only an attempt
 * claimed for submission (D36: `claimForSubmission`, or the request's or approval's own transaction) is sent.
 */
export async function submitPayout(ctx: AppContext, p: PayoutsTable): Promise<SubmitResult> {
  if (p.status !== 'approved') return { kind: 'submitted', body: null };
  if (!p.submission_started_at) throw new Error(`payout ${p.id} was not claimed for submission (D36)`);
  let outcome;
  try {
    outcome = await ctx.rail.submitTransfer({
      reference: p.rail_reference,
      fromCvu: p.origin_cvu,
      ...payee(p),
      amountCentavos: Number(p.amount),
      description: p.note ?? undefined,
    });
  } catch (err) {
    ctx.log.warn({ err, payout: p.id }, 'rail submission failed without an answer');
    outcome = { kind: 'unknown' as const, message: 'rail error' };
  }
  if (outcome.kind === 'accepted') return railHas(ctx, p, outcome.transfer);
  if (outcome.kind === 'rejected') {
    const error = await markRejected(ctx, p, outcome.reason, outcome.message);
    if (error) return { kind: 'rejected', error };
    // Another send may be at the bank: asked about by reference now, and again (then sent again if the bank still
    // has nothing) after a while, not at every pass of the follow-up.
    const asked = await askRail(ctx, p);
    if (asked.kind === 'known') return railHas(ctx, p, asked.transfer);
    ctx.log.warn({ payout: p.id, reason: outcome.reason }, 'the bank refused a send of a payout another send of which may be there; asked again later');
    // After IN_DOUBT_RECHECK_MS, or later if the bank said when to come back.
    const recheckAt = new Date(ctx.clock.now().getTime() + IN_DOUBT_RECHECK_MS).toISOString();
    const bankSaid = asked.kind === 'no_answer' ? asked.notBefore : undefined;
    const askAgainAt = bankSaid && bankSaid > recheckAt ? bankSaid : recheckAt;
    await reschedule(ctx.store.db, p.id, nextCheck(ctx, null, askAgainAt));
    return { kind: 'unknown' };
  }
  if (outcome.kind === 'turned_away') {
    // Nothing reached the bank from this submission (D36): unclaimed, the follow-up sends it again; while paused it
    // is parked at once (shown waiting, not only once Retry-After has passed), under the per-user lock so a resume
    // cannot miss it. Unless an earlier submission of it may have (`submission_unknown_at`): that one stays in flight.
    const at = nextCheck(ctx, null, outcome.notBefore);
    await ctx.store.transaction(async (tx) => {
      await lockWalletForPayout(ctx.store, tx, p.user_id);
      const paused = (await pauseState(tx, p.user_id)).paused;
      if ((await unclaimTurnedAway.run(tx, { id: p.id, at: paused ? null : at })).changed === 0) await reschedule(tx, p.id, at);
    });
    return { kind: 'unknown' };
  }
  // A rail that said when to come back is asked then, not at once (it would turn the question away too).
  const asked = outcome.notBefore ? ({ kind: 'no_answer', notBefore: outcome.notBefore } as const) : await askRail(ctx, p);
  if (asked.kind === 'known') return railHas(ctx, p, asked.transfer);
  // The rail may still act on what it did not answer (D19): remembered, so a pause keeps it in flight (D36).
  const at = nextCheck(ctx, null, asked.kind === 'no_answer' ? asked.notBefore : undefined);
  await unansweredSubmission.run(ctx.store.db, { id: p.id, at, now: ctx.clock.now().toISOString() });
  return { kind: 'unknown' };
}

/**
 * The rail has our transfer. One it has already failed by the time the request is answered (at once, or found so
 * after a timed-out submission) is the rail rejecting the payout: the contract's 502 `WITHDRAW_FAILED`, which its
 * key replays (D37), never a 201 `submitted` for money that will not move.
 */
async function railHas(ctx: AppContext, p: PayoutsTable, t: RailTransfer): Promise<SubmitResult> {
  const body = await applyRailStatus(ctx, p, t);
  if (t.status === 'FAILED') return { kind: 'rejected', error: withdrawFailed(p.id, t.failureReason ?? 'rail_failed') };
  return { kind: 'submitted', body };
}

/** `at` null: parked (D36), the next check left to the resume. */
const unclaimTurnedAway = compiled<{ id: string; at: string | null }>((db, a) =>
  db
    .updateTable('payouts')
    .set({ next_check_at: a.at, submission_started_at: null })
    .where('id', '=', a.id)
    .where('status', '=', 'approved')
    .where('submission_unknown_at', 'is', null),
);

const unansweredSubmission = compiled<{ id: string; at: string; now: string }>((db, a) =>
  db.updateTable('payouts').set({ next_check_at: a.at, submission_unknown_at: a.now }).where('id', '=', a.id).where('status', '=', 'approved'),
);

/** `notBefore`: the rail turned the question away and said when to ask again. */
type RailAnswer = { kind: 'known'; transfer: RailTransfer } | { kind: 'not_found' } | { kind: 'no_answer'; notBefore?: string };

/** Asks the rail about our reference: it has it, it positively does not, or it could not say. */
export async function askRail(ctx: AppContext, p: PayoutsTable): Promise<RailAnswer> {
  try {
    const t = await ctx.rail.getTransfer(p.rail_reference);
    return t ? { kind: 'known', transfer: t } : { kind: 'not_found' };
  } catch (err) {
    ctx.log.warn({ err, payout: p.id }, 'rail status query failed');
    return err instanceof RailBusyError ? { kind: 'no_answer', notBefore: err.notBefore } : { kind: 'no_answer' };
  }
}
