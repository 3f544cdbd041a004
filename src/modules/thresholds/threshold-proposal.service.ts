import type { AppContext } from '../../context.js';
import { AppError } from '../../shared/errors.js';
import { availableChannels, createApproval, notifyPending } from '../approvals/approvals.service.js';
import type { Principal } from '../auth/auth.service.js';
import { writeAudit } from '../audit/audit.service.js';
import { parseThresholdFields, THRESHOLD_FIELDS, type ThresholdsView } from './thresholds.service.js';

/**
 * MCP `propose_threshold_change` (D13): an agent never changes limits itself. The proposal becomes a
 * `threshold_change` approval for the owner; on approval only the proposed fields change, otherwise nothing.
 */
export async function proposeThresholdChange(ctx: AppContext, who: Principal, input: Partial<ThresholdsView>) {
  const proposed = Object.fromEntries(Object.entries(input).filter(([k, v]) => (THRESHOLD_FIELDS as readonly string[]).includes(k) && v !== undefined));
  if (Object.keys(proposed).length === 0) {
    throw new AppError('INVALID_REQUEST', `Propose at least one of: ${THRESHOLD_FIELDS.join(', ')}`);
  }
  const parsed = parseThresholdFields(proposed);
  const channels = (await availableChannels(ctx, who.userId)).map((c) => c.name);
  if (channels.length === 0) throw new AppError('APPROVAL_NOT_CONFIGURED', 'No approval channel is available to ask the owner');
  const approval = await ctx.store.transaction(async (tx) => {
    const a = await createApproval(ctx, tx, { userId: who.userId, kind: 'threshold_change', proposal: parsed, who, channels });
    await writeAudit(tx, ctx.clock, who, { action: 'thresholds.proposed', subjectId: a.id, data: proposed });
    return a;
  });
  await notifyPending(ctx, approval.id);
  return {
    approval_id: approval.id,
    status: 'pending' as const,
    expires_at: approval.expires_at,
    expires_in: ctx.config.approvalTtlSeconds,
    proposed,
  };
}
