import type { Executor } from '../../db/database.js';
import type { ApprovalStatus } from './approvals.tables.js';

/** How an approval ended (or that it has not yet), for other modules that show it, e.g. the receipt (D21). */
export interface ApprovalDecision {
  id: string;
  status: ApprovalStatus;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  /** `dashboard` or `telegram` for the owner's decision (D23); `expiry`, or `policy` when a re-check refused it (D28). */
  decided_via: string | null;
}

/**
 * Read-only view of one approval by id. Kept apart from approvals.service.ts so that readers depend on this narrow
 * shape rather than on the table or on the deciding code.
 */
export async function approvalDecisionOf(db: Executor, approvalId: string): Promise<ApprovalDecision | null> {
  const row = await db
    .selectFrom('approvals')
    .select(['id', 'status', 'created_at', 'expires_at', 'decided_at', 'decided_via'])
    .where('id', '=', approvalId)
    .executeTakeFirst();
  return row ?? null;
}
