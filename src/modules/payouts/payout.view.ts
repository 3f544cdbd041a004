import { checkCursor } from '../../shared/ids.js';
import type { AppContext } from '../../context.js';
import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/database.js';
import { AppError } from '../../shared/errors.js';
import { centavosToArs } from '../../shared/money.js';
import type { DestinationKind } from '../../shared/ar-identifiers.js';
import type { PayoutsTable } from './payouts.tables.js';

/** The payout attempt record of the contract (plus a few fields of ours: note, failure_reason, recipient). */
export interface PayoutView {
  id: string;
  amount_ars: number;
  destination: string;
  destination_kind: DestinationKind;
  status: string;
  decision: string;
  decision_reasons: string[];
  idempotency_key: string;
  created_at: string;
  resolved_at: string | null;
  provider_transfer_id: string | null;
  /** D43: the transfer's Coelsa id when the rail gives one (BIND), the reference banks use for claims. */
  coelsa_id: string | null;
  api_key_id: string | null;
  api_key_name: string | null;
  note: string | null;
  failure_reason: string | null;
  approval_id: string | null;
  recipient_name: string | null;
  recipient_legal_id: string | null;
  updated_at: string;
  /**
   * D36: approved but not on its way: it was left waiting by the emergency stop and is sent once payouts are
   * resumed (the owner may cancel it meanwhile).
   */
  waiting_for_resume: boolean;
}

export const toPayoutView = (p: PayoutsTable): PayoutView => ({
  id: p.id,
  amount_ars: centavosToArs(Number(p.amount)),
  destination: p.destination,
  destination_kind: p.destination_kind,
  status: p.status,
  decision: p.decision,
  decision_reasons: JSON.parse(p.decision_reasons) as string[],
  idempotency_key: p.idempotency_key,
  created_at: p.created_at,
  resolved_at: p.resolved_at,
  provider_transfer_id: p.provider_transfer_id,
  coelsa_id: p.coelsa_id ?? null,
  api_key_id: p.api_key_id,
  api_key_name: p.api_key_name,
  note: p.note,
  failure_reason: p.failure_reason,
  approval_id: p.approval_id,
  recipient_name: p.recipient_name,
  recipient_legal_id: p.recipient_legal_id,
  updated_at: p.updated_at,
  // Parked while paused (D36): nothing sent, and no next check until resume wakes it.
  waiting_for_resume: p.status === 'approved' && p.submission_started_at === null && p.next_check_at === null,
});

/** Compiled once: a payout by id is among the most frequent reads. */
const payoutById = compiled<{ id: string }, PayoutsTable>((db, a) => db.selectFrom('payouts').selectAll().where('id', '=', a.id));
const payoutOfUser = compiled<{ id: string; userId: string }, PayoutsTable>((db, a) =>
  db.selectFrom('payouts').selectAll().where('id', '=', a.id).where('user_id', '=', a.userId),
);

export async function loadPayout(db: Executor, id: string): Promise<PayoutsTable | null> {
  return (await payoutById.first(db, { id })) ?? null;
}

/** The user's attempt, or 404 NOT_FOUND: another user's attempt is simply not found (D20). */
export async function requirePayoutOfUser(db: Executor, userId: string, id: string): Promise<PayoutsTable> {
  const row = await payoutOfUser.first(db, { id, userId });
  if (!row) throw new AppError('NOT_FOUND', 'Payout not found');
  return row;
}

export async function getPayout(ctx: AppContext, userId: string, id: string): Promise<PayoutView> {
  return toPayoutView(await requirePayoutOfUser(ctx.store.db, userId, id));
}

export const LIST_MAX = 100;

/** Newest first, at most 100 (D20); `cursor` is the last id of the previous page. */
export async function listPayouts(
  ctx: AppContext,
  userId: string,
  opts: { limit?: number; cursor?: string } = {},
): Promise<{ withdraws: PayoutView[]; next_cursor: string | null }> {
  const limit = Math.min(Math.max(opts.limit ?? LIST_MAX, 1), LIST_MAX);
  let q = ctx.store.db.selectFrom('payouts').selectAll().where('user_id', '=', userId);
  checkCursor('wd', opts.cursor);
  if (opts.cursor) q = q.where('id', '<', opts.cursor);
  const rows = await q.orderBy('id', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  return { withdraws: page.map(toPayoutView), next_cursor: rows.length > limit ? page[page.length - 1]!.id : null };
}
