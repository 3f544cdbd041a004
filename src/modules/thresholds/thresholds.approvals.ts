import type { ApprovalKindHandler } from '../approvals/approval-kinds.js';
import type { PolicyThresholds } from '../policy/policy.js';
import { loadThresholds, toThresholdsView, writeThresholds } from './thresholds.service.js';

/** An agent's proposal (D13): approving writes only the proposed fields; rejecting or expiring changes nothing. */
export const thresholdApprovals: ApprovalKindHandler = {
  async describe(ctx, db, a) {
    const stored = await loadThresholds(ctx, db, a.user_id);
    const current: Record<string, unknown> = { ...toThresholdsView(stored) };
    const proposed = toThresholdsView({ ...stored, ...(JSON.parse(a.proposal!) as Partial<PolicyThresholds>) });
    const changed = Object.fromEntries(Object.entries(proposed).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(current[k])));
    return { thresholdChange: { current, proposed: changed } };
  },
  async approve(ctx, tx, a, now) {
    const current = await loadThresholds(ctx, tx, a.user_id);
    await writeThresholds(tx, a.user_id, { ...current, ...(JSON.parse(a.proposal!) as Partial<PolicyThresholds>) }, now);
    return [];
  },
  async reject() {},
  async expire() {},
};
