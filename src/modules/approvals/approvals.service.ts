import type { AppContext } from '../../context.js';
import { waitLongerForLocks, type Executor, type Tx } from '../../db/database.js';
import { isStoreUnavailable } from '../../db/store-errors.js';
import { AppError } from '../../shared/errors.js';
import { checkCursor, newId } from '../../shared/ids.js';
import { batchPass, mapBounded } from '../../shared/jobs.js';
import type { Principal } from '../auth/auth.service.js';
import { writeAudit } from '../audit/audit.service.js';
import { wakeLiveAfterCommit } from '../live/live.hub.js';
import { lockWalletForPayout } from '../wallet/wallet.locks.js';
import { NOTICE_LEASE_MS, notifyResolved, notifyResolvedAfterCommit } from './approvals.notices.js';
import type { ApprovalsTable, ApprovalKind, ApprovalStatus } from './approvals.tables.js';
import type { ApprovalChannel } from './channels/channel.port.js';
import type { ApprovalSubject } from './approval-kinds.js';

export { notifyPending, notifyPendingAfterCommit, retryPendingNotices } from './approvals.notices.js';

export interface ApprovalView {
  id: string;
  kind: ApprovalKind;
  status: string;
  created_at: string;
  expires_at: string;
  expires_in: number;
  decided_at: string | null;
  decided_via: string | null;
  api_key_id: string | null;
  api_key_name: string | null;
  payout: null | {
    id: string;
    amount_ars: number;
    destination: string;
    destination_kind: string;
    recipient_name: string | null;
    reasons: string[];
    note: string | null;
    status: string;
  };
  threshold_change: null | { current: Record<string, unknown>; proposed: Record<string, unknown>; limits_changed: boolean };
}

/** The configured channels that can reach this user now (D23); none means approvals cannot be asked for. */
export async function availableChannels(ctx: AppContext, userId: string, db: Executor = ctx.store.db, kind: ApprovalKind = 'payout'): Promise<ApprovalChannel[]> {
  const out: ApprovalChannel[] = [];
  for (const c of ctx.channels) if ((c.handles?.(kind) ?? true) && (await c.isAvailable(userId, db))) out.push(c);
  return out;
}

/** A new pending approval, in the transaction of the request it is about. */
export async function createApproval(
  ctx: AppContext,
  tx: Tx,
  a: { id?: string; userId: string; kind: ApprovalKind; payoutId?: string; proposal?: unknown; who: Principal; channels: string[]; ttlSeconds?: number },
): Promise<ApprovalsTable> {
  const now = ctx.clock.now();
  const owed = a.channels.filter((c) => c !== 'dashboard');
  const row: ApprovalsTable = {
    id: a.id ?? newId('apr', now),
    user_id: a.userId,
    kind: a.kind,
    payout_id: a.payoutId ?? null,
    proposal: a.proposal ? JSON.stringify(a.proposal) : null,
    status: 'pending',
    api_key_id: a.who.keyId ?? null,
    api_key_name: a.who.keyName ?? null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + (a.ttlSeconds ?? ctx.config.approvalTtlSeconds) * 1000).toISOString(),
    decided_at: null,
    decided_via: null,
    notify_pending: JSON.stringify(owed),
    // The request sends the first notices itself; the notices job takes over only if it did not finish.
    notify_next_at: owed.length > 0 ? new Date(now.getTime() + NOTICE_LEASE_MS).toISOString() : null,
  };
  await tx.insertInto('approvals').values(row).execute();
  wakeLiveAfterCommit(tx, a.userId); // the dashboard shows it at once
  return row;
}

/** Past its deadline but not swept yet: it is expired, whatever the row says. */
const effectiveStatus = (a: ApprovalsTable, nowIso: string): ApprovalStatus =>
  a.status === 'pending' && a.expires_at <= nowIso ? 'expired' : a.status;

async function toView(ctx: AppContext, a: ApprovalsTable, now: Date, subject?: ApprovalSubject): Promise<ApprovalView> {
  const s = subject ?? (await ctx.approvalKinds.of(a.kind).describe(ctx, ctx.store.db, a));
  const status = effectiveStatus(a, now.toISOString());
  return {
    id: a.id,
    kind: a.kind,
    status,
    created_at: a.created_at,
    expires_at: a.expires_at,
    expires_in: status === 'pending' ? Math.max(0, Math.floor((Date.parse(a.expires_at) - now.getTime()) / 1000)) : 0,
    decided_at: a.decided_at,
    decided_via: a.decided_via,
    api_key_id: a.api_key_id,
    api_key_name: a.api_key_name,
    payout: s.payout
      ? {
          id: s.payout.id,
          amount_ars: s.payout.amount / 100,
          destination: s.payout.destination,
          destination_kind: s.payout.destinationKind,
          recipient_name: s.payout.recipientName,
          reasons: s.payout.reasons,
          note: s.payout.note,
          status: s.subjectStatus ?? '',
        }
      : null,
    threshold_change: s.thresholdChange
      ? { current: s.thresholdChange.current, proposed: s.thresholdChange.proposed, limits_changed: s.thresholdChange.limitsChanged ?? false }
      : null,
  };
}

export async function getApproval(ctx: AppContext, userId: string, id: string): Promise<ApprovalView> {
  const a = await ctx.store.db.selectFrom('approvals').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!a) throw new AppError('NOT_FOUND', 'Approval not found');
  return toView(ctx, a, ctx.clock.now());
}

export const APPROVALS_LIST_MAX = 100;

/**
 * Newest first, at most 100 a page (`cursor` is the last id of the previous page), optionally one status. A
 * pending approval past its deadline counts as expired before the sweep reaches it.
 */
export async function listApprovals(
  ctx: AppContext,
  userId: string,
  opts: { status?: ApprovalStatus; limit?: number; cursor?: string } = {},
): Promise<{ approvals: ApprovalView[]; next_cursor: string | null }> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), APPROVALS_LIST_MAX);
  let q = ctx.store.db.selectFrom('approvals').selectAll().where('user_id', '=', userId);
  checkCursor('apr', opts.cursor);
  if (opts.cursor) q = q.where('id', '<', opts.cursor);
  if (opts.status === 'pending') q = q.where('status', '=', 'pending').where('expires_at', '>', nowIso);
  else if (opts.status === 'expired') q = q.where((eb) => eb.or([eb('status', '=', 'expired'), eb.and([eb('status', '=', 'pending'), eb('expires_at', '<=', nowIso)])]));
  else if (opts.status) q = q.where('status', '=', opts.status);
  const rows = await q.orderBy('id', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const approvals: ApprovalView[] = [];
  for (const a of page) approvals.push(await toView(ctx, a, now));
  return { approvals, next_cursor: rows.length > limit ? page[page.length - 1]!.id : null };
}

export type Verdict = 'approve' | 'reject';

type Decided = { kind: 'lost' } | { kind: 'decided'; a: ApprovalsTable; subject: ApprovalSubject } | { kind: 'refused'; a: ApprovalsTable; reasons: string[] };

/**
 * D22: deciding is one conditional update on a pending, unexpired approval, so approve racing reject has
 * exactly one winner; what the decision means (the payout's transition, the threshold change) commits with it.
 * D28: approving re-checks what would deny the request now; if anything does, the request ends instead and the
 * caller gets 422 PAYOUT_DENIED with the reasons. D36: the decision takes the per-user lock first, as a payout's
 * decision and the pause do, so a pause either lands before it (and approving is refused) or after it (and lists
 * the approved payout as in flight).
 */
export async function decideApproval(
  ctx: AppContext,
  who: Principal,
  approvalId: string,
  verdict: Verdict,
  via: string,
): Promise<ApprovalView> {
  const found = await ctx.store.db.selectFrom('approvals').selectAll().where('id', '=', approvalId).where('user_id', '=', who.userId).executeTakeFirst();
  if (!found) throw new AppError('NOT_FOUND', 'Approval not found');
  const handler = ctx.approvalKinds.of(found.kind);
  // Only an approval that can still be decided is checked: one whose window has ended is 409 APPROVAL_EXPIRED
  // (D22), not PAYOUTS_PAUSED or a rail failure met while checking what is no longer asked.
  const open = effectiveStatus(found, ctx.clock.now().toISOString()) === 'pending';
  const outside = verdict === 'approve' && open && handler.precheckApprove ? await handler.precheckApprove(ctx, found) : [];

  // The activity log names what was decided: the amount, the destination and the agent that asked.
  const subject = (await handler.describe(ctx, ctx.store.db, found)).payout;
  const about = {
    via,
    kind: found.kind,
    api_key_name: found.api_key_name,
    ...(subject ? { request: { amount_ars: subject.amount / 100, destination: subject.destination, destination_kind: subject.destinationKind } } : {}),
  };

  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const result = await ctx.store.transaction(async (tx): Promise<Decided> => {
    // The owner's decision (a safety action, D35) waits behind an agent's queued requests rather than give up.
    await waitLongerForLocks(ctx.store, tx);
    await lockWalletForPayout(ctx.store, tx, who.userId);
    const a = await tx
      .updateTable('approvals')
      .set({ status: verdict === 'approve' ? 'approved' : 'rejected', decided_at: nowIso, decided_via: via, notify_next_at: null })
      .where('id', '=', approvalId)
      .where('status', '=', 'pending')
      .where('expires_at', '>', nowIso)
      .returningAll()
      .executeTakeFirst();
    if (!a) return { kind: 'lost' };
    if (verdict === 'reject') {
      await handler.reject(ctx, tx, a, now);
      await writeAudit(tx, ctx.clock, who, { action: 'approval.reject', subjectId: a.id, data: about });
      return { kind: 'decided', a, subject: await handler.describe(ctx, tx, a) };
    }
    const refused = await handler.approve(ctx, tx, a, now, outside);
    if (refused.length > 0) {
      const ended = await tx.updateTable('approvals').set({ status: 'rejected', decided_via: 'policy' }).where('id', '=', a.id).returningAll().executeTakeFirstOrThrow();
      await writeAudit(tx, ctx.clock, who, { action: 'approval.refused', subjectId: a.id, data: { ...about, reasons: refused } });
      return { kind: 'refused', a: ended, reasons: refused };
    }
    await writeAudit(tx, ctx.clock, who, { action: 'approval.approve', subjectId: a.id, data: about });
    return { kind: 'decided', a, subject: await handler.describe(ctx, tx, a) };
  });

  if (result.kind !== 'lost') wakeLiveAfterCommit(ctx.store.db, who.userId);
  if (result.kind === 'lost') {
    const a = (await ctx.store.db.selectFrom('approvals').selectAll().where('id', '=', approvalId).executeTakeFirst())!;
    if (effectiveStatus(a, nowIso) === 'expired') {
      throw new AppError('APPROVAL_EXPIRED', 'The approval window has ended; the request was not carried out');
    }
    throw new AppError('APPROVAL_ALREADY_DECIDED', `This approval was already ${a.status}`);
  }
  // D42: the decision has committed, so a 503 (which says nothing was kept) would be wrong from here on. What
  // follows carries it out or tells of it, and each has a keeper should the store fail now: an approved payout is
  // the follow-up job's once its grace ends, outcome notices are best effort (and waited for only briefly, so a
  // slow messaging service never holds the decision's answer). The answer is the decision as it stands, described
  // in its own transaction when the store cannot describe it now.
  const committed = async (what: string, step: () => Promise<unknown>): Promise<void> => {
    try {
      await step();
    } catch (err) {
      if (!isStoreUnavailable(err)) throw err;
      ctx.log.warn({ err, approval: approvalId }, `the store failed after the decision committed (${what})`);
    }
  };
  if (result.kind === 'refused') {
    await notifyResolvedAfterCommit(ctx, result.a);
    throw new AppError('PAYOUT_DENIED', `Cannot approve: ${result.reasons.join(', ')}. The request was ended.`, { reasons: result.reasons });
  }
  if (verdict === 'approve') await committed('submission; the follow-up job submits it', async () => handler.afterApproved?.(ctx, result.a));
  await notifyResolvedAfterCommit(ctx, result.a);
  try {
    return await toView(ctx, result.a, ctx.clock.now());
  } catch (err) {
    if (!isStoreUnavailable(err)) throw err;
    return toView(ctx, result.a, ctx.clock.now(), result.subject);
  }
}

const EXPIRY_BATCH = 200;
const EXPIRY_PARALLEL = 4;

/**
 * Expires pending approvals past their deadline, found through the (status, expires_at) index. Each expiry is a
 * conditional update, so on several nodes exactly one expires a given approval and writes its event (D29).
 */
export async function expireDueApprovals(ctx: AppContext, limit = EXPIRY_BATCH): Promise<number> {
  const now = ctx.clock.now().toISOString();
  const due = await ctx.store.db
    .selectFrom('approvals')
    .select('id')
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  await mapBounded(due, EXPIRY_PARALLEL, (a) => expireApprovalIfDue(ctx, a.id));
  return due.length;
}

export const approvalExpiryPass = (ctx: AppContext) => batchPass(EXPIRY_BATCH, (limit) => expireDueApprovals(ctx, limit));

/** Expires one approval if it is pending and past its deadline; tells the channels. */
export async function expireApprovalIfDue(ctx: AppContext, approvalId: string): Promise<boolean> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const expired = await ctx.store.transaction(async (tx) => {
    const a = await tx
      .updateTable('approvals')
      .set({ status: 'expired', decided_at: nowIso, decided_via: 'expiry', notify_next_at: null })
      .where('id', '=', approvalId)
      .where('status', '=', 'pending')
      .where('expires_at', '<=', nowIso)
      .returningAll()
      .executeTakeFirst();
    if (!a) return null;
    await ctx.approvalKinds.of(a.kind).expire(ctx, tx, a, now);
    return a;
  });
  if (expired) {
    wakeLiveAfterCommit(ctx.store.db, expired.user_id);
    await notifyResolved(ctx, expired);
  }
  return expired !== null;
}

/** When the oldest pending approval expires or expired, and when the oldest owed notice is due (for metrics). */
export async function oldestApprovalDue(ctx: AppContext, what: 'expiry' | 'notice'): Promise<string | null> {
  const db = ctx.store.db;
  if (what === 'expiry') {
    const row = await db.selectFrom('approvals').select('expires_at').where('status', '=', 'pending').orderBy('expires_at').limit(1).executeTakeFirst();
    return row?.expires_at ?? null;
  }
  const row = await db.selectFrom('approvals').select('notify_next_at').where('notify_next_at', 'is not', null).orderBy('notify_next_at').limit(1).executeTakeFirst();
  return row?.notify_next_at ?? null;
}
