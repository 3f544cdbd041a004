import type { AppContext } from '../../context.js';
import { compiled, compiledInsert } from '../../db/compiled.js';
import type { Executor } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { checkCursor, newId } from '../../shared/ids.js';
import { arsToCentavos, centavosToArs } from '../../shared/money.js';
import { onEventRecorded, type RecordedEvent } from '../events/events.service.js';
import type { WalletTransactionsTable } from './transactions.tables.js';

export const TRANSACTIONS_PAGE_DEFAULT = 20;
export const TRANSACTIONS_PAGE_MAX = 100;

/** The contract's Transaction (history entry); `destination` on debits, `origin` on credits. */
export interface TransactionView {
  id: string;
  type: 'debit' | 'credit';
  amount: number;
  destination?: string;
  origin?: string;
  counterparty_name: string | null;
  description: string;
  status: WalletTransactionsTable['status'];
  created_at: string;
  payout_id?: string;
}

const toView = (r: WalletTransactionsTable): TransactionView => ({
  id: r.id,
  type: r.type,
  amount: centavosToArs(Number(r.amount)),
  ...(r.type === 'debit' ? { destination: r.counterparty, payout_id: r.source_id } : { origin: r.counterparty }),
  counterparty_name: r.counterparty_name,
  description: r.description,
  status: r.status,
  created_at: r.created_at,
});

interface PayoutData {
  id: string;
  amount_ars: number;
  destination: string;
  recipient_name: string | null;
  note: string | null;
  provider_transfer_id: string | null;
}
interface DepositData {
  id: string;
  from: string;
  fromName: string;
  amount: string;
}

const insertEntry = compiledInsert(
  'wallet_transactions',
  {
    id: true, user_id: true, type: true, amount: true, counterparty: true, counterparty_name: true, description: true, status: true,
    source_id: true, created_at: true, updated_at: true,
  },
  { doNothingOnConflict: 'source_id' },
);
const settleEntry = compiled<{ source_id: string; status: WalletTransactionsTable['status']; now: string }>((db, a) =>
  db.updateTable('wallet_transactions').set({ status: a.status, updated_at: a.now }).where('source_id', '=', a.source_id),
);

/** Keeps the history from the outbox: what the owner's systems are told is what the history shows. */
async function onEvent(db: Executor, clock: Clock, e: RecordedEvent): Promise<void> {
  const now = clock.now().toISOString();
  // D34: a payout that reached the rail has its entry. Most are announced as submitted first; one the rail failed
  // at first sight (its status, once known, was already FAILED) is announced as failed only, with the rail's id.
  const reachedRail = e.type === 'payout.submitted' || (e.type === 'payout.failed' && (e.data as PayoutData).provider_transfer_id);
  if (reachedRail) {
    const p = e.data as PayoutData;
    await insertEntry.run(db, {
      id: newId('txn', clock.now()),
      user_id: e.userId,
      type: 'debit',
      amount: arsToCentavos(p.amount_ars)!,
      counterparty: p.destination,
      counterparty_name: p.recipient_name,
      description: p.note ?? '',
      status: 'pending',
      source_id: p.id,
      created_at: now,
      updated_at: now,
    });
  }
  if (e.type === 'payout.confirmed' || e.type === 'payout.failed') {
    await settleEntry.run(db, { source_id: (e.data as PayoutData).id, status: e.type === 'payout.confirmed' ? 'completed' : 'failed', now });
  } else if (e.type === 'deposit.detected') {
    const d = e.data as DepositData;
    await insertEntry.run(db, {
      id: newId('txn', clock.now()),
      user_id: e.userId,
      type: 'credit',
      amount: arsToCentavos(Number(d.amount))!,
      counterparty: d.from,
      counterparty_name: d.fromName,
      description: `Transferencia de ${d.fromName}`,
      status: 'completed',
      source_id: d.id,
      created_at: now,
      updated_at: now,
    });
  }
}

/**
 * Subscribes the history to the outbox (at composition). Like the webhook subscriber it stays for the life of
 * the process: it holds no state, and a later app in the same process must not lose it when an earlier closes.
 */
export function registerTransactionsHistory(): void {
  onEventRecorded(onEvent);
}

/**
 * D34: newest first, keyset-paged by id. New entries get newer ids, so they appear before any cursor already
 * handed out: pages neither skip nor repeat entries while money moves.
 */
export async function listTransactions(
  ctx: AppContext,
  userId: string,
  opts: { limit?: number; cursor?: string } = {},
): Promise<{ transactions: TransactionView[]; next_cursor: string | null; has_more: boolean }> {
  const limit = Math.min(Math.max(opts.limit ?? TRANSACTIONS_PAGE_DEFAULT, 1), TRANSACTIONS_PAGE_MAX);
  let q = ctx.store.db.selectFrom('wallet_transactions').selectAll().where('user_id', '=', userId);
  checkCursor('txn', opts.cursor);
  if (opts.cursor) q = q.where('id', '<', opts.cursor);
  const rows = await q.orderBy('id', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { transactions: page.map(toView), next_cursor: hasMore ? page[page.length - 1]!.id : null, has_more: hasMore };
}
