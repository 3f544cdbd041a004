import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { kindOf } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import type { ApprovalKindHandler } from '../approvals/approval-kinds.js';
import { askRail } from '../rail/rail.answers.js';
import { lockWalletForPayout } from '../wallet/wallet.locks.js';
import { afterGrace, submitPayout, transition } from './payout.lifecycle.js';
import { pauseState } from './pause.service.js';
import { loadPayout } from './payout.view.js';

/** D31: while payouts are paused a held payout cannot be approved; it stays pending (rejecting still works). */
async function refuseWhilePaused(db: Executor, userId: string): Promise<void> {
  if ((await pauseState(db, userId)).paused) {
    throw new AppError('PAYOUTS_PAUSED', 'Payouts are paused: resume them before approving (rejecting still works)');
  }
}

/**
 * What deciding a payout approval means. Approving re-checks the deny reasons at decision time (D28): KYC and
 * the absolute cap inside the decision transaction, the destination at the rail just before it; any of them
 * ends the attempt as `failed` with the reasons instead of paying.
 */
export const payoutApprovals: ApprovalKindHandler = {
  async describe(_ctx, db, a) {
    const p = (await loadPayout(db, a.payout_id!))!;
    return {
      subjectStatus: p.status,
      payout: {
        id: p.id,
        amount: Number(p.amount),
        destination: p.destination,
        destinationKind: p.destination_kind,
        recipientName: p.recipient_name,
        reasons: JSON.parse(p.decision_reasons) as string[],
        note: p.note,
      },
    };
  },

  async precheckApprove(ctx, a) {
    await refuseWhilePaused(ctx.store.db, a.user_id);
    const p = await loadPayout(ctx.store.db, a.payout_id!);
    if (!p) return [];
    // The account resolved at request time must still exist; it is the one that will be paid.
    const account = p.recipient_account ?? p.destination;
    const kind = p.recipient_account ? kindOf(p.recipient_account) : p.destination_kind;
    if (!kind) return ['destination_invalid'];
    return (await askRail(ctx, 'resolve', () => ctx.rail.resolve(kind, account), 'nothing was decided, try again')) ? [] : ['destination_invalid'];
  },

  async approve(ctx, tx, a, now, refuse) {
    // Under the per-user lock the decision took (D36): a pause either landed before (refused here, which rolls the
    // decision back) or waits for this to commit and then lists the payout as in flight.
    const wallet = await lockWalletForPayout(ctx.store, tx, a.user_id);
    await refuseWhilePaused(tx, a.user_id);
    const p = (await loadPayout(tx, a.payout_id!))!;
    const reasons = [...refuse];
    if (wallet?.kyc_status !== 'verified') reasons.push('kyc_incomplete');
    const cap = Math.round(ctx.config.absoluteCapArs * 100);
    if (cap > 0 && Number(p.amount) > cap) reasons.push('absolute_cap');
    if (reasons.length > 0) {
      await transition(ctx, tx, p.id, ['pending_approval'], 'failed', 'payout.failed', { failure_reason: reasons.join(',') });
      return reasons;
    }
    await transition(ctx, tx, p.id, ['pending_approval'], 'approved', 'payout.approved', {
      approved_at: now.toISOString(),
      next_check_at: afterGrace(ctx, now),
      submission_started_at: now.toISOString(),
    });
    return [];
  },

  async reject(ctx, tx, a) {
    await transition(ctx, tx, a.payout_id!, ['pending_approval'], 'rejected', 'payout.rejected');
  },

  async expire(ctx, tx, a) {
    await transition(ctx, tx, a.payout_id!, ['pending_approval'], 'expired', 'payout.expired');
  },

  /** D19: an approved payout is submitted at once; the follow-up job covers a crash before it. */
  async afterApproved(ctx: AppContext, a) {
    const p = await loadPayout(ctx.store.db, a.payout_id!);
    if (p) await submitPayout(ctx, p);
  },
};
