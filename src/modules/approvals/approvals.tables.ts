import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export type ApprovalKind = 'payout' | 'threshold_change';
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired';

/** D22: what the owner is asked to decide, until when, and how it ended. */
export interface ApprovalsTable {
  id: string;
  user_id: string;
  kind: ApprovalKind;
  /** The payout id for `payout` approvals. */
  payout_id: string | null;
  /** JSON of the proposed threshold fields for `threshold_change` approvals. */
  proposal: string | null;
  status: ApprovalStatus;
  api_key_id: string | null;
  api_key_name: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  /** The channel the decision came through (`dashboard`, `telegram`) or `expiry`. */
  decided_via: string | null;
  /** Channels still owed a message about this approval (JSON array: its request while pending, its outcome once decided), retried by the notices job. */
  notify_pending: string;
  /** When the notices job may next try the owed channels (also its claim, D29); null when nothing is owed. */
  notify_next_at: string | null;
}

export interface ApprovalsTables {
  approvals: ApprovalsTable;
}

export const approvalsMigrations: Record<string, Migration> = {
  '0008_approvals': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('approvals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payout_id', 'text')
        .addColumn('proposal', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('api_key_id', 'text')
        .addColumn('api_key_name', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .addColumn('decided_via', 'text')
        .addColumn('notify_pending', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema.createIndex('approvals_user_idx').on('approvals').columns(['user_id', 'status', 'created_at']).execute();
      await db.schema.createIndex('approvals_expiry_idx').on('approvals').columns(['status', 'expires_at']).execute();
    },
  },
  '0013_approvals_notice_due': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('approvals').addColumn('notify_next_at', 'text').execute();
      await db.schema.createIndex('approvals_notify_due_idx').on('approvals').column('notify_next_at').execute();
      await db.schema.createIndex('approvals_user_id_idx').on('approvals').columns(['user_id', 'id']).execute();
    },
  },
  // Only approvals that still owe a notice have a retry time; the rest left a NULL entry each.
  '0018_approvals_notify_due_partial': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('approvals_notify_due_idx').execute();
      await db.schema
        .createIndex('approvals_notify_due_idx')
        .on('approvals')
        .column('notify_next_at')
        .where(sql.ref('notify_next_at'), 'is not', null)
        .execute();
    },
  },
};
