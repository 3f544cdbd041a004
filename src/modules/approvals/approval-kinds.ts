import type { AppContext } from '../../context.js';
import type { Executor, Tx } from '../../db/database.js';
import type { ApprovalKind, ApprovalsTable } from './approvals.tables.js';
import type { ApprovalNotice } from './channels/channel.port.js';

/** What a kind adds to an approval for the owner: the payout or the threshold change, and its own status. */
export type ApprovalSubject = Pick<ApprovalNotice, 'payout' | 'thresholdChange'> & { subjectStatus?: string };

/**
 * What the module that owns a kind of approval does when it is decided. The approvals module knows approvals
 * (who may decide, when, and the race between deciders); the owning module knows what deciding means, so
 * approvals never import payouts or thresholds.
 */
export interface ApprovalKindHandler {
  describe(ctx: AppContext, db: Executor, a: ApprovalsTable): Promise<ApprovalSubject>;
  /**
   * Checks that need the outside world (the rail), before the decision transaction. Returns the reasons that
   * forbid carrying out the request now (D28); empty when approving may go ahead.
   */
  precheckApprove?(ctx: AppContext, a: ApprovalsTable): Promise<string[]>;
  /**
   * Carries out an approval inside the decision transaction. `refuse` holds the reasons found outside; the
   * handler adds its own (D28) and, when there are any, ends the request instead and returns them.
   */
  approve(ctx: AppContext, tx: Tx, a: ApprovalsTable, now: Date, refuse: string[]): Promise<string[]>;
  reject(ctx: AppContext, tx: Tx, a: ApprovalsTable, now: Date): Promise<void>;
  expire(ctx: AppContext, tx: Tx, a: ApprovalsTable, now: Date): Promise<void>;
  /** After an approval committed (e.g. submit the payout to the rail). */
  afterApproved?(ctx: AppContext, a: ApprovalsTable): Promise<void>;
}

/** The handlers by kind, filled by the owning modules at composition (buildApp). */
export class ApprovalKinds {
  private readonly handlers = new Map<ApprovalKind, ApprovalKindHandler>();

  register(kind: ApprovalKind, handler: ApprovalKindHandler): void {
    this.handlers.set(kind, handler);
  }

  of(kind: ApprovalKind): ApprovalKindHandler {
    const h = this.handlers.get(kind);
    if (!h) throw new Error(`no handler registered for approvals of kind ${kind}`);
    return h;
  }
}
