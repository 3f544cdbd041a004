import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DestinationKind } from '../../shared/ar-identifiers.js';

export type PayoutStatus = 'pending_approval' | 'approved' | 'rejected' | 'expired' | 'submitted' | 'confirmed' | 'failed';
/** Statuses whose amounts count against the daily and monthly limits (D16). */
export const COMMITTED_STATUSES: PayoutStatus[] = ['pending_approval', 'approved', 'submitted', 'confirmed'];
export const FINAL_STATUSES: PayoutStatus[] = ['rejected', 'expired', 'confirmed', 'failed'];

/** A payout attempt (contract: "Payout attempt"). Amounts in centavos. */
export interface PayoutsTable {
  id: string;
  user_id: string;
  api_key_id: string | null;
  api_key_name: string | null;
  amount: number;
  destination: string;
  destination_kind: DestinationKind;
  note: string | null;
  status: PayoutStatus;
  decision: 'allow' | 'require_approval';
  /** JSON array of policy reasons. */
  decision_reasons: string;
  idempotency_key: string;
  /** Our idempotent reference at the rail (BIND `origin_id`: 15 characters). */
  rail_reference: string;
  provider_transfer_id: string | null;
  failure_reason: string | null;
  approval_id: string | null;
  origin_cvu: string;
  origin_name: string;
  recipient_name: string | null;
  recipient_legal_id: string | null;
  recipient_account: string | null;
  /** Calendar day and month in America/Argentina/Buenos_Aires, for the limits (D16). */
  day_key: string;
  month_key: string;
  created_at: string;
  updated_at: string;
  approved_at: string | null;
  submitted_at: string | null;
  resolved_at: string | null;
  /** When the follow-up job should next look at it (submission recovery, confirmation polling). */
  next_check_at: string | null;
  /**
   * D36: when an `approved` attempt was claimed for submission to the rail, under the per-user lock after the
   * pause was checked. Null while it waits (paused, parked, or its send turned away by the rail): such an attempt is
   * never sent until claimed again.
   */
  submission_started_at: string | null;
  /**
   * D19, D36: when a submission of this attempt went unanswered (a timeout, a lost answer): the rail may have it, or
   * may still act on it, even while it says it does not know the reference. Such an attempt stays in flight while
   * payouts are paused (never parked as waiting, so never canceled) until the rail answers for it.
   */
  submission_unknown_at: string | null;
  /** The transfer's Coelsa id, when the rail gives one (BIND): the reference banks use for claims. */
  coelsa_id: string | null;
}

/**
 * D16 without history scans: centavos committed per subject (`u:<user>` or `k:<key>`) per Buenos Aires day
 * (`2026-11-22`) and month (`2026-11`), kept in the same transaction as every change that moves them.
 */
export interface PayoutUsageTable {
  subject: string;
  period: string;
  amount: number;
}

/** D31: the owner's emergency stop; a row exists while the user's payouts are paused. */
export interface PayoutPausesTable {
  user_id: string;
  paused_at: string;
}

export interface PayoutsTables {
  payouts: PayoutsTable;
  payout_usage: PayoutUsageTable;
  payout_pauses: PayoutPausesTable;
}

export const payoutsMigrations: Record<string, Migration> = {
  '0007_payouts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('payouts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('api_key_id', 'text')
        .addColumn('api_key_name', 'text')
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('destination', 'text', (c) => c.notNull())
        .addColumn('destination_kind', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('decision', 'text', (c) => c.notNull())
        .addColumn('decision_reasons', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('rail_reference', 'text', (c) => c.notNull().unique())
        .addColumn('provider_transfer_id', 'text')
        .addColumn('failure_reason', 'text')
        .addColumn('approval_id', 'text')
        .addColumn('origin_cvu', 'text', (c) => c.notNull())
        .addColumn('origin_name', 'text', (c) => c.notNull())
        .addColumn('recipient_name', 'text')
        .addColumn('recipient_legal_id', 'text')
        .addColumn('recipient_account', 'text')
        .addColumn('day_key', 'text', (c) => c.notNull())
        .addColumn('month_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('approved_at', 'text')
        .addColumn('submitted_at', 'text')
        .addColumn('resolved_at', 'text')
        .addColumn('next_check_at', 'text')
        .execute();
      await db.schema.createIndex('payouts_user_created_idx').on('payouts').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('payouts_user_day_idx').on('payouts').columns(['user_id', 'day_key']).execute();
      await db.schema.createIndex('payouts_user_month_idx').on('payouts').columns(['user_id', 'month_key']).execute();
      await db.schema.createIndex('payouts_followup_idx').on('payouts').columns(['status', 'next_check_at']).execute();
    },
  },
  '0013_payout_usage': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('payout_usage')
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('payout_usage_pk', ['subject', 'period'])
        .execute();
      // Existing attempts count from the start (D16 statuses).
      for (const [prefix, col] of [
        ['u:', 'user_id'],
        ['k:', 'api_key_id'],
      ] as const) {
        for (const period of ['day_key', 'month_key'] as const) {
          await sql`insert into payout_usage (subject, period, amount)
            select ${prefix} || ${sql.ref(col)}, ${sql.ref(period)}, sum(amount) from payouts
            where ${sql.ref(col)} is not null and status in ('pending_approval', 'approved', 'submitted', 'confirmed')
            group by ${sql.ref(col)}, ${sql.ref(period)}`.execute(db);
        }
      }
      // Due work only: attempts in flight have a next check; final ones have none and leave the index.
      await db.schema.createIndex('payouts_next_check_idx').on('payouts').column('next_check_at').execute();
      await db.schema.dropIndex('payouts_followup_idx').execute();
      await db.schema.dropIndex('payouts_user_day_idx').execute();
      await db.schema.dropIndex('payouts_user_month_idx').execute();
      await db.schema.createIndex('payouts_user_id_idx').on('payouts').columns(['user_id', 'id']).execute();
    },
  },
  '0015_payout_pauses': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('payout_pauses')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('paused_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  // Every index is written on every insert. Lists page by (user_id, id) since 0014; nothing reads
  // (user_id, created_at) any more.
  '0016_drop_payouts_user_created_idx': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('payouts_user_created_idx').execute();
    },
  },
  // A plain index kept a NULL entry for every final attempt, so it grew with history and each
  // confirmation wrote one more entry. Partial, it holds only the attempts still in flight; `next_check_at <= ?`
  // implies NOT NULL on both stores, so the follow-up pass still reads it.
  '0018_payouts_next_check_in_flight': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('payouts_next_check_idx').execute();
      await db.schema
        .createIndex('payouts_next_check_idx')
        .on('payouts')
        .column('next_check_at')
        .where(sql.ref('next_check_at'), 'is not', null)
        .execute();
    },
  },
  // D36: the submission claim. Attempts already approved were being sent in the old model: they count as claimed.
  // The partial index serves the pause (what is in flight) and the resume (what waits) per user.
  '0019_payout_submission_claims': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('payouts').addColumn('submission_started_at', 'text').execute();
      await sql`update payouts set submission_started_at = updated_at where status = 'approved'`.execute(db);
      await db.schema
        .createIndex('payouts_user_approved_idx')
        .on('payouts')
        .column('user_id')
        .where(sql.ref('status'), '=', sql.lit('approved'))
        .execute();
    },
  },
  // D43: BIND gives each transfer a Coelsa id, the reference other banks and wallets use for claims.
  '0020_payouts_coelsa_id': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('payouts').addColumn('coelsa_id', 'text').execute();
    },
  },
  // D19, D36: a submission the rail did not answer may still reach the bank; the pause must not park it as waiting.
  '0027_payouts_submission_unknown': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('payouts').addColumn('submission_unknown_at', 'text').execute();
    },
  },
};
