import type { AppContext } from '../../context.js';
import { AppError } from '../../shared/errors.js';
import { availableChannels, createApproval, notifyPendingAfterCommit } from '../approvals/approvals.service.js';
import { refuseUnlessLive, requireScopeOf, type Principal } from '../auth/auth.service.js';
import { keyNowIn } from '../keys/keys.service.js';
import { lockWalletForPayout } from '../wallet/wallet.locks.js';
import { writeAudit } from '../audit/audit.service.js';
import { CHANGE_TEXT_MAX, changeLines } from '../approvals/channels/notice-text.js';
import type { PolicyThresholds } from '../policy/policy.js';
import { applyProposal, type ThresholdProposal } from './thresholds.approvals.js';
import { FIELD_KEYS, loadThresholds, parseThresholdFields, THRESHOLD_FIELDS, toThresholdsView, type ThresholdsView } from './thresholds.service.js';

/**
 * MCP `propose_threshold_change` (D13): an agent never changes limits itself. The proposal becomes a
 * `threshold_change` approval for the owner; on approval only the proposed fields change, otherwise nothing.
 */
export async function proposeThresholdChange(ctx: AppContext, who: Principal, input: Partial<ThresholdsView>) {
  const proposed = Object.fromEntries(Object.entries(input).filter(([k, v]) => (THRESHOLD_FIELDS as readonly string[]).includes(k) && v !== undefined));
  if (Object.keys(proposed).length === 0) {
    throw new AppError('INVALID_REQUEST', `Propose at least one of: ${THRESHOLD_FIELDS.join(', ')}`);
  }
  // The tool's arguments, named as the agent sent them (MCP has no request body).
  const parsed = parseThresholdFields(proposed, '');
  // D13: the owner is shown only what would change (the approval's notice, sent now, lists a field only when its
  // value differs), so only that is asked. A field proposed at its value in force would otherwise be written on
  // approval too, unseen, over whatever the owner set meanwhile.
  const current = await loadThresholds(ctx, ctx.store.db, who.userId);
  const { whitelist, ...amounts } = Object.fromEntries(
    Object.entries(parsed).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(current[k as keyof PolicyThresholds])),
  ) as Partial<PolicyThresholds>;
  const asked: ThresholdProposal = { ...amounts };
  if (Object.keys(amounts).length > 0) {
    asked.was = Object.fromEntries(Object.keys(amounts).map((k) => [k, current[k as keyof PolicyThresholds]])) as ThresholdProposal['was'];
  }
  if (whitelist) {
    // The trusted list as what it adds and takes away (see ThresholdProposal).
    const added = whitelist.filter((d) => !current.whitelist.includes(d));
    const removed = current.whitelist.filter((d) => !whitelist.includes(d));
    if (added.length) asked.whitelistAdd = added;
    if (removed.length) asked.whitelistRemove = removed;
    if (added.length || removed.length) asked.was = { ...asked.was, whitelist: current.whitelist };
  }
  if (Object.keys(asked).length === 0) {
    throw new AppError('INVALID_REQUEST', 'Nothing to propose: these are the limits in force');
  }
  const before = toThresholdsView(current);
  const after = toThresholdsView(applyProposal(current, asked));
  const summary = changeLines({
    current: { ...before },
    proposed: Object.fromEntries(Object.entries(after).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k as keyof ThresholdsView]))),
  }).join('; ');
  if (summary.length > CHANGE_TEXT_MAX) {
    throw new AppError(
      'INVALID_REQUEST',
      'This change is too long to show the owner in one approval message: propose fewer changes at once (a few destinations at a time), or ask the owner to make it in the dashboard',
    );
  }
  const changes = new Set<string>([...Object.keys(amounts), ...(asked.whitelistAdd || asked.whitelistRemove ? ['whitelist'] : [])]);
  const shown = Object.fromEntries(Object.entries(proposed).filter(([k]) => changes.has(FIELD_KEYS[k as keyof ThresholdsView])));
  const channels = (await availableChannels(ctx, who.userId, ctx.store.db, 'threshold_change')).map((c) => c.name);
  if (channels.length === 0) throw new AppError('APPROVAL_NOT_CONFIGURED', 'No approval channel is available to ask the owner');
  const approval = await ctx.store.transaction(async (tx) => {
    // D12, D31, D44: the agent's key as it is now, under the per-user lock a revoke or an edit takes, as a payout's
    // decision reads it: once the owner's revoke (or a scope taken away) has answered, a proposal still on its way
    // reaches nobody, rather than asking the owner on behalf of an agent they just cut off.
    await lockWalletForPayout(ctx.store, tx, who.userId);
    if (who.kind === 'api_key' && who.keyId) {
      const key = refuseUnlessLive(await keyNowIn(ctx, tx, who.userId, who.keyId));
      requireScopeOf({ ...who, controls: key }, 'thresholds:propose');
    }
    const a = await createApproval(ctx, tx, { userId: who.userId, kind: 'threshold_change', proposal: asked, who, channels });
    await writeAudit(tx, ctx.clock, who, { action: 'thresholds.proposed', subjectId: a.id, data: proposed });
    return a;
  });
  await notifyPendingAfterCommit(ctx, approval.id);
  return {
    approval_id: approval.id,
    status: 'pending' as const,
    expires_at: approval.expires_at,
    expires_in: ctx.config.approvalTtlSeconds,
    proposed: shown,
  };
}
