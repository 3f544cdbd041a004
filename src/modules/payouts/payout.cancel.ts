import type { AppContext } from '../../context.js';
import { waitLongerForLocks } from '../../db/database.js';
import { AppError } from '../../shared/errors.js';
import type { Principal } from '../auth/auth.service.js';
import { writeAudit } from '../audit/audit.service.js';
import { lockWalletForPayout } from '../wallet/wallet.locks.js';
import { bindKeyToFailure, transition, withdrawFailed } from './payout.lifecycle.js';
import { requirePayoutOfUser, toPayoutView, type PayoutView } from './payout.view.js';

export const CANCELED_BY_OWNER = 'canceled_by_owner';

/**
 * D36: the owner cancels a payout left `approved` and not yet on its way (one that waits for resume). Under the
 * per-user lock that every submission claim takes, so it cannot race one: it ends `failed` with reason
 * `canceled_by_owner`, its usage is given back and `payout.failed` is announced; its idempotency key keeps the
 * answer its request was given, and only a request not answered yet (its claim still in flight) stores the failure (D37). A payout whose submission already started, or that is not `approved`, answers 409.
 */
export async function cancelPayout(ctx: AppContext, who: Principal, payoutId: string): Promise<PayoutView> {
  const row = await ctx.store.transaction(async (tx) => {
    await waitLongerForLocks(ctx.store, tx);
    await lockWalletForPayout(ctx.store, tx, who.userId);
    const p = await requirePayoutOfUser(tx, who.userId, payoutId);
    if (p.status !== 'approved' || p.submission_started_at !== null) {
      throw new AppError(
        'PAYOUT_NOT_CANCELABLE',
        p.status === 'approved'
          ? 'This payout is already on its way to the bank; it can no longer be canceled'
          : p.status === 'pending_approval'
            ? `This payout waits for your approval: reject it instead (POST /v1/approvals/${p.approval_id}/reject)`
            : `Only a payout that waits to be sent can be canceled; this one is ${p.status}`,
      );
    }
    const failed = await transition(ctx, tx, p.id, ['approved'], 'failed', 'payout.failed', { failure_reason: CANCELED_BY_OWNER });
    if (!failed) throw new AppError('PAYOUT_NOT_CANCELABLE', 'This payout changed meanwhile; look at it again');
    await bindKeyToFailure(tx, failed, withdrawFailed(failed.id, CANCELED_BY_OWNER, 'The owner canceled the payout before it was sent'));
    await writeAudit(tx, ctx.clock, who, { action: 'payout.canceled', subjectId: failed.id, data: { amount_ars: toPayoutView(failed).amount_ars, destination: failed.destination } });
    return failed;
  });
  return toPayoutView(row);
}
