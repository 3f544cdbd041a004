import type { AppContext } from '../../context.js';
import { mapBounded } from '../../shared/jobs.js';
import type { ApprovalsTable } from './approvals.tables.js';
import { ChannelBusy, type ApprovalNotice } from './channels/channel.port.js';

/** How long one node holds the right to send an approval's owed notices (D29). */
export const NOTICE_LEASE_MS = 30_000;
const RETRY_AFTER_MS = 15_000;
/** When to try again: in 15 s, or later if a channel's service said to wait longer (ChannelBusy), up to an hour. */
const retryAt = (now: number, errors: readonly unknown[]): string =>
  new Date(now + Math.min(60 * 60_000, Math.max(RETRY_AFTER_MS, ...errors.map((e) => (e instanceof ChannelBusy ? e.retryAfterMs : 0))))).toISOString();
/** How long after a decision its outcome is still worth showing on a channel that failed to take it. */
const OUTCOME_RETRY_FOR_MS = 60 * 60_000;
const NOTICES_BATCH = 100;
/**
 * How long a request (a payout asked, a decision) waits for its notices before answering. A messaging service that
 * is slow must not hold the payout request (the contract: it answers at once) or the owner's decision; the notice
 * goes on in the background, bounded by the channel's own timeout, and the notices job covers it if it fails.
 */
export const NOTICE_WAIT_MS = 2_000;

/** Runs `work` and waits for it at most NOTICE_WAIT_MS; whatever it throws, now or later, is logged. */
async function waitBriefly(ctx: AppContext, what: string, approvalId: string, work: () => Promise<void>): Promise<void> {
  const done = work().catch((err: unknown) => ctx.log.warn({ err, approval: approvalId }, `${what} failed`));
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, NOTICE_WAIT_MS);
  });
  await Promise.race([done, waited]);
  clearTimeout(timer);
}

async function noticeOf(ctx: AppContext, a: ApprovalsTable): Promise<ApprovalNotice> {
  const subject = await ctx.approvalKinds.of(a.kind).describe(ctx, ctx.store.db, a);
  return {
    id: a.id,
    userId: a.user_id,
    kind: a.kind,
    status: a.status,
    expiresAt: a.expires_at,
    decidedVia: a.decided_via,
    apiKeyName: a.api_key_name,
    payout: subject.payout,
    thresholdChange: subject.thresholdChange,
  };
}

/**
 * Sends the pending notice to every channel still owed one. The caller holds the notices' lease (the request
 * that created the approval, or the job that claimed it); a channel that fails stays owed and is retried.
 */
export async function notifyPending(ctx: AppContext, approvalId: string): Promise<void> {
  const a = await ctx.store.db.selectFrom('approvals').selectAll().where('id', '=', approvalId).executeTakeFirst();
  if (!a || a.status !== 'pending') return;
  const owed = JSON.parse(a.notify_pending) as string[];
  if (owed.length === 0) return;
  const notice = await noticeOf(ctx, a);
  const stillOwed: string[] = [];
  const errors: unknown[] = [];
  const sent: string[] = [];
  for (const name of owed) {
    const channel = ctx.channels.find((c) => c.name === name);
    if (!channel) continue;
    try {
      await channel.notifyPending(notice);
      sent.push(name);
    } catch (err) {
      ctx.log.warn({ err, approval: approvalId, channel: name }, 'approval notice not delivered; will retry');
      stillOwed.push(name);
      errors.push(err);
    }
  }
  // Decided while these were on their way: the decision's outcome notice found no message to edit yet (they are
  // recorded once sent), so the messages just sent are told the outcome now, rather than keep their buttons.
  const now = sent.length > 0 ? await ctx.store.db.selectFrom('approvals').selectAll().where('id', '=', approvalId).executeTakeFirst() : undefined;
  if (now && now.status !== 'pending') return notifyResolved(ctx, now, sent);
  const next = stillOwed.length > 0 ? retryAt(ctx.clock.now().getTime(), errors) : null;
  await ctx.store.db
    .updateTable('approvals')
    .set({ notify_pending: JSON.stringify(stillOwed), notify_next_at: next })
    .where('id', '=', approvalId)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * `notifyPending` by the request that has just committed the approval (D42): the approval stands whatever happens
 * here, so a failure is logged rather than thrown (the request's answer must not be a 503, which would say nothing
 * was kept), the request waits for it only briefly, and the notices job sends what is owed once the lease set at
 * creation ends.
 */
export async function notifyPendingAfterCommit(ctx: AppContext, approvalId: string): Promise<void> {
  await waitBriefly(ctx, 'the first approval notice (the notices job sends what is still owed)', approvalId, () => notifyPending(ctx, approvalId));
}

/** `notifyResolved` by the request that has just decided (D42): the decision's answer waits for it only briefly. */
export async function notifyResolvedAfterCommit(ctx: AppContext, a: ApprovalsTable): Promise<void> {
  await waitBriefly(ctx, 'outcome notice', a.id, () => notifyResolved(ctx, a));
}

/**
 * Tells the channels (every one, or those still owed it) how an approval ended. The decision stands whatever a
 * channel says; one that fails (Telegram down or turning us away with 429) is owed the outcome and retried by the
 * notices job for an hour, so a message does not keep offering buttons for what is decided.
 */
export async function notifyResolved(ctx: AppContext, a: ApprovalsTable, only?: readonly string[]): Promise<void> {
  const notice = await noticeOf(ctx, a);
  const failed: string[] = [];
  const errors: unknown[] = [];
  for (const channel of ctx.channels) {
    if (only && !only.includes(channel.name)) continue;
    await channel.notifyResolved(notice).catch((err: unknown) => {
      ctx.log.warn({ err, approval: a.id, channel: channel.name }, 'outcome notice failed; will retry');
      failed.push(channel.name);
      errors.push(err);
    });
  }
  if (failed.length === 0 && !only) return;
  const now = ctx.clock.now().getTime();
  const giveUp = Date.parse(a.decided_at ?? a.expires_at) + OUTCOME_RETRY_FOR_MS;
  const next = failed.length > 0 && now < giveUp ? retryAt(now, errors) : null;
  await ctx.store.db
    .updateTable('approvals')
    .set({ notify_pending: JSON.stringify(next ? failed : []), notify_next_at: next })
    .where('id', '=', a.id)
    .where('status', '!=', 'pending')
    .execute();
}

/**
 * Retries owed notices whose retry time has come (index on notify_next_at): the request of a pending approval, the
 * outcome of a decided one. Each is claimed by moving its retry time forward with a conditional update, so two
 * nodes never work the same one at once (D29). Returns how many were due.
 */
export async function retryPendingNotices(ctx: AppContext, limit = NOTICES_BATCH): Promise<number> {
  const now = ctx.clock.now();
  const due = await ctx.store.db
    .selectFrom('approvals')
    .select(['id', 'notify_next_at'])
    .where('notify_next_at', '<=', now.toISOString())
    .orderBy('notify_next_at')
    .limit(limit)
    .execute();
  await mapBounded(due, 4, async (d) => {
    // Each claim's lease runs from its own claim: one set when the batch began may have ended by the time a slow
    // batch reaches this one, and another node would send it too.
    const lease = new Date(ctx.clock.now().getTime() + NOTICE_LEASE_MS).toISOString();
    const claimed = await ctx.store.db
      .updateTable('approvals')
      .set({ notify_next_at: lease })
      .where('id', '=', d.id)
      .where('notify_next_at', '=', d.notify_next_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return;
    const a = await ctx.store.db.selectFrom('approvals').selectAll().where('id', '=', d.id).executeTakeFirst();
    if (a?.status === 'pending') await notifyPending(ctx, d.id);
    else if (a) await notifyResolved(ctx, a, JSON.parse(a.notify_pending) as string[]);
  });
  return due.length;
}
