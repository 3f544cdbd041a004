import type { AppContext } from '../../context.js';
import type { Executor, Tx } from '../../db/database.js';
import { AppError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { Principal } from '../auth/auth.service.js';
import { writeAudit } from '../audit/audit.service.js';
import { submitPayout, SUBMISSION_GRACE_MS, transition } from '../payouts/payout.lifecycle.js';
import { loadPayout } from '../payouts/payout.view.js';
import type { PolicyThresholds } from '../policy/policy.js';
import { loadThresholds, toThresholdsView, writeThresholds } from '../thresholds/thresholds.service.js';
import type { ApprovalsTable, ApprovalKind } from './approvals.tables.js';
import type { ApprovalChannel, ApprovalNotice } from './channels/channel.port.js';

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
  threshold_change: null | { current: Record<string, unknown>; proposed: Record<string, unknown> };
}

/** The configured channels that can reach this user now (D23); none means approvals cannot be asked for. */
export async function availableChannels(ctx: AppContext, userId: string): Promise<ApprovalChannel[]> {
  const out: ApprovalChannel[] = [];
  for (const c of ctx.channels) if (await c.isAvailable(userId)) out.push(c);
  return out;
}

export async function createApproval(
  ctx: AppContext,
  tx: Tx,
  a: { userId: string; kind: ApprovalKind; payoutId?: string; proposal?: Partial<PolicyThresholds>; who: Principal; channels: string[] },
): Promise<ApprovalsTable> {
  const now = ctx.clock.now();
  const row: ApprovalsTable = {
    id: newId('apr', now),
    user_id: a.userId,
    kind: a.kind,
    payout_id: a.payoutId ?? null,
    proposal: a.proposal ? JSON.stringify(a.proposal) : null,
    status: 'pending',
    api_key_id: a.who.keyId ?? null,
    api_key_name: a.who.keyName ?? null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ctx.config.approvalTtlSeconds * 1000).toISOString(),
    decided_at: null,
    decided_via: null,
    notify_pending: JSON.stringify(a.channels.filter((c) => c !== 'dashboard')),
  };
  await tx.insertInto('approvals').values(row).execute();
  return row;
}

async function noticeOf(ctx: AppContext, db: Executor, a: ApprovalsTable): Promise<ApprovalNotice> {
  const notice: ApprovalNotice = {
    id: a.id,
    userId: a.user_id,
    kind: a.kind,
    status: a.status,
    expiresAt: a.expires_at,
    apiKeyName: a.api_key_name,
  };
  if (a.payout_id) {
    const p = (await loadPayout(db, a.payout_id))!;
    notice.payout = {
      id: p.id,
      amount: Number(p.amount),
      destination: p.destination,
      destinationKind: p.destination_kind,
      recipientName: p.recipient_name,
      reasons: JSON.parse(p.decision_reasons) as string[],
      note: p.note,
    };
  }
  if (a.proposal) {
    const current: Record<string, unknown> = { ...toThresholdsView(await loadThresholds(ctx, db, a.user_id)) };
    const proposed = toThresholdsView({ ...(await loadThresholds(ctx, db, a.user_id)), ...(JSON.parse(a.proposal) as Partial<PolicyThresholds>) });
    const changed = Object.fromEntries(
      Object.entries(proposed).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(current[k])),
    );
    notice.thresholdChange = { current, proposed: changed };
  }
  return notice;
}

function toView(n: ApprovalNotice, a: ApprovalsTable, now: Date, payoutStatus?: string): ApprovalView {
  return {
    id: a.id,
    kind: a.kind,
    status: a.status,
    created_at: a.created_at,
    expires_at: a.expires_at,
    expires_in: a.status === 'pending' ? Math.max(0, Math.floor((Date.parse(a.expires_at) - now.getTime()) / 1000)) : 0,
    decided_at: a.decided_at,
    decided_via: a.decided_via,
    api_key_id: a.api_key_id,
    api_key_name: a.api_key_name,
    payout: n.payout
      ? {
          id: n.payout.id,
          amount_ars: n.payout.amount / 100,
          destination: n.payout.destination,
          destination_kind: n.payout.destinationKind,
          recipient_name: n.payout.recipientName,
          reasons: n.payout.reasons,
          note: n.payout.note,
          status: payoutStatus ?? '',
        }
      : null,
    threshold_change: n.thresholdChange ?? null,
  };
}

export async function getApproval(ctx: AppContext, userId: string, id: string): Promise<ApprovalView> {
  const a = await ctx.store.db.selectFrom('approvals').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!a) throw new AppError('NOT_FOUND', 'Approval not found');
  const p = a.payout_id ? await loadPayout(ctx.store.db, a.payout_id) : null;
  return toView(await noticeOf(ctx, ctx.store.db, a), a, ctx.clock.now(), p?.status);
}

/** Pending first (soonest to expire first), then the 50 most recently decided. */
export async function listApprovals(ctx: AppContext, userId: string): Promise<ApprovalView[]> {
  const now = ctx.clock.now();
  const pending = await ctx.store.db
    .selectFrom('approvals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now.toISOString())
    .orderBy('expires_at')
    .execute();
  const others = await ctx.store.db
    .selectFrom('approvals')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('status', '!=', 'pending'), eb('expires_at', '<=', now.toISOString())]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  const out: ApprovalView[] = [];
  for (const a of [...pending, ...others]) {
    const p = a.payout_id ? await loadPayout(ctx.store.db, a.payout_id) : null;
    const view = toView(await noticeOf(ctx, ctx.store.db, a), a, now, p?.status);
    // Past its deadline but not swept yet: it is expired, whatever the row says.
    if (a.status === 'pending' && a.expires_at <= now.toISOString()) view.status = 'expired';
    out.push(view);
  }
  return out;
}

export type Verdict = 'approve' | 'reject';

/**
 * D22: deciding is one conditional update on a pending, unexpired approval, so approve racing reject has
 * exactly one winner; the payout (or threshold) change and its event commit with it. An approved payout is then
 * submitted to the rail at once (D19).
 */
export async function decideApproval(
  ctx: AppContext,
  who: Principal,
  approvalId: string,
  verdict: Verdict,
  via: string,
): Promise<ApprovalView> {
  const now = ctx.clock.now();
  const won = await ctx.store.db.transaction().execute(async (tx) => {
    const res = await tx
      .updateTable('approvals')
      .set({ status: verdict === 'approve' ? 'approved' : 'rejected', decided_at: now.toISOString(), decided_via: via })
      .where('id', '=', approvalId)
      .where('user_id', '=', who.userId)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    const a = (await tx.selectFrom('approvals').selectAll().where('id', '=', approvalId).executeTakeFirstOrThrow());
    if (a.kind === 'payout') {
      const to = verdict === 'approve' ? 'approved' : 'rejected';
      await transition(ctx, tx, a.payout_id!, ['pending_approval'], to, verdict === 'approve' ? 'payout.approved' : 'payout.rejected', {
        ...(verdict === 'approve'
          ? { approved_at: now.toISOString(), next_check_at: new Date(now.getTime() + SUBMISSION_GRACE_MS).toISOString() }
          : {}),
      });
    } else if (verdict === 'approve') {
      const current = await loadThresholds(ctx, tx, a.user_id);
      await writeThresholds(tx, a.user_id, { ...current, ...(JSON.parse(a.proposal!) as Partial<PolicyThresholds>) }, now);
    }
    await writeAudit(tx, ctx.clock, who, { action: `approval.${verdict}`, subjectId: a.id, data: { via, kind: a.kind } });
    return a;
  });

  if (!won) {
    const a = await ctx.store.db.selectFrom('approvals').selectAll().where('id', '=', approvalId).where('user_id', '=', who.userId).executeTakeFirst();
    if (!a) throw new AppError('NOT_FOUND', 'Approval not found');
    if (a.status === 'expired' || (a.status === 'pending' && a.expires_at <= now.toISOString())) {
      throw new AppError('APPROVAL_EXPIRED', 'The approval window has ended; the request was not carried out');
    }
    throw new AppError('APPROVAL_ALREADY_DECIDED', `This approval was already ${a.status}`);
  }
  if (won.kind === 'payout' && verdict === 'approve') await submitPayout(ctx, won.payout_id!);
  await notifyResolved(ctx, approvalId);
  return getApproval(ctx, who.userId, approvalId);
}

/** Expires every pending approval past its deadline, with its payout and event (contract: `payout.expired`). */
export async function expireDueApprovals(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now().toISOString();
  const due = await ctx.store.db
    .selectFrom('approvals')
    .select(['id'])
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .limit(500)
    .execute();
  let n = 0;
  for (const a of due) if (await expireApprovalIfDue(ctx, a.id)) n++;
  return n;
}

/** Expires one approval if it is pending and past its deadline; tells the channels. */
export async function expireApprovalIfDue(ctx: AppContext, approvalId: string): Promise<boolean> {
  const now = ctx.clock.now().toISOString();
  const expired = await ctx.store.db.transaction().execute(async (tx) => {
    const res = await tx
      .updateTable('approvals')
      .set({ status: 'expired', decided_at: now, decided_via: 'expiry' })
      .where('id', '=', approvalId)
      .where('status', '=', 'pending')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    const a = await tx.selectFrom('approvals').select('payout_id').where('id', '=', approvalId).executeTakeFirstOrThrow();
    if (a.payout_id) await transition(ctx, tx, a.payout_id, ['pending_approval'], 'expired', 'payout.expired');
    return true;
  });
  if (expired) await notifyResolved(ctx, approvalId);
  return expired;
}

/** Sends the pending notice to every channel still owed one; a failure stays owed and is retried later. */
export async function notifyPending(ctx: AppContext, approvalId: string): Promise<void> {
  const a = await ctx.store.db.selectFrom('approvals').selectAll().where('id', '=', approvalId).executeTakeFirst();
  if (!a || a.status !== 'pending') return;
  const owed = JSON.parse(a.notify_pending) as string[];
  if (owed.length === 0) return;
  const notice = await noticeOf(ctx, ctx.store.db, a);
  const stillOwed: string[] = [];
  for (const name of owed) {
    const channel = ctx.channels.find((c) => c.name === name);
    if (!channel) continue;
    try {
      await channel.notifyPending(notice);
    } catch (err) {
      ctx.log.warn({ err, approval: approvalId, channel: name }, 'approval notice not delivered; will retry');
      stillOwed.push(name);
    }
  }
  await ctx.store.db.updateTable('approvals').set({ notify_pending: JSON.stringify(stillOwed) }).where('id', '=', approvalId).execute();
}

export async function notifyResolved(ctx: AppContext, approvalId: string): Promise<void> {
  const a = await ctx.store.db.selectFrom('approvals').selectAll().where('id', '=', approvalId).executeTakeFirst();
  if (!a) return;
  const notice = await noticeOf(ctx, ctx.store.db, a);
  for (const channel of ctx.channels) {
    await channel.notifyResolved(notice).catch((err) => ctx.log.warn({ err, approval: approvalId }, 'outcome notice failed'));
  }
}

export async function retryPendingNotices(ctx: AppContext): Promise<void> {
  const rows = await ctx.store.db
    .selectFrom('approvals')
    .select('id')
    .where('status', '=', 'pending')
    .where('notify_pending', '!=', '[]')
    .where('expires_at', '>', ctx.clock.now().toISOString())
    .limit(100)
    .execute();
  for (const r of rows) await notifyPending(ctx, r.id);
}
