import { compiled, compiledByShape, compiledForList, compiledInsert } from '../../../db/compiled.js';
import { sql } from 'kysely';
import type { Executor, Store, Tx } from '../../../db/database.js';
import type { Clock } from '../../../shared/clock.js';
import { newId } from '../../../shared/ids.js';
import { MAX_CENTAVOS } from '../../../shared/money.js';
import type { RailTransfer } from '../rail.port.js';
import type { MagicScenario } from './sandbox-names.js';
import { writeNotice } from './sandbox-incoming.js';
import type { RailAccountsTable, RailLegsTable, RailTransfersTable } from './sandbox.tables.js';
import { WORLD_ACCOUNT_ID } from './sandbox.tables.js';

/** The unique reference makes a second submission of the same reference a no-op. */
const insertTransfer = compiledInsert(
  'rail_transfers',
  {
    id: true, reference: true, from_account_id: true, to_account_id: true, from_identifier: true, from_name: true, from_legal_id: true,
    to_identifier: true, to_name: true, to_legal_id: true, amount: true, status: true, failure_reason: true, scenario: true,
    description: true, created_at: true, confirm_after: true, completed_at: true,
  },
  { doNothingOnConflict: 'reference' },
);
/** A transfer's two legs, in one statement. */
const insertLegs = compiledInsert(
  'rail_legs',
  { id: true, transfer_id: true, account_id: true, amount: true, is_reversal: true, created_at: true },
  { rows: 2 },
);
/**
 * The most an account may hold, in centavos: past it a balance is no longer an exact integer in the service (D5),
 * so a credit that would cross it is refused (money given back by a reversal is not).
 */
const BALANCE_CEILING = MAX_CENTAVOS;

/** A balance change; a debit only when the balance covers it, a capped credit only while it stays under the ceiling. */
const changeBalance = compiledByShape<{ debit: boolean; capped: boolean }, { id: string; delta: number; needed?: number; room?: number }>((db, a, shape) => {
  const q = db
    .updateTable('rail_accounts')
    .set((eb) => ({ balance: eb('balance', '+', a.delta) }))
    .where('id', '=', a.id);
  return shape.debit ? q.where('balance', '>=', a.needed!) : shape.capped ? q.where('balance', '<=', a.room!) : q;
});
const settle = compiled<{ id: string; status: string; failure_reason: string | null; now: string }>((db, a) =>
  db
    .updateTable('rail_transfers')
    .set({ status: a.status as RailTransfersTable['status'], failure_reason: a.failure_reason, completed_at: a.now })
    .where('id', '=', a.id)
    .where('status', '=', 'IN_PROGRESS'),
);

const completeMany = compiledForList<{ now: string }, { id: string }>((db, a, ids) =>
  db
    .updateTable('rail_transfers')
    .set({ status: 'COMPLETED', failure_reason: null, completed_at: a.now })
    .where('id', 'in', ids)
    .where('status', '=', 'IN_PROGRESS')
    .returning('id'),
);

/** What the ledger needs of an account: which row, and whether it keeps a balance. */
export type AccountRef = Pick<RailAccountsTable, 'id' | 'kind'>;

/** Every other bank. Its id is a constant, so the payout path never reads its row. */
export const WORLD: AccountRef = { id: WORLD_ACCOUNT_ID, kind: 'world' };

/** One side of a transfer: the ledger account and what the transfer records about it. */
export interface Endpoint {
  account: AccountRef;
  identifier: string;
  name: string;
  legalId: string;
  scenario: MagicScenario | null;
}

/** Thrown inside a move's or a settlement's transaction to roll it back when a debit finds the money spent. */
class InsufficientFunds extends Error {}

/** Thrown inside a move's transaction to roll it back when a credit would take an account past BALANCE_CEILING. */
class OverCeiling extends Error {}

/** A deposit from outside that would take the account past BALANCE_CEILING: nothing moved. */
export class BalanceCeilingReached extends Error {
  constructor(cvu: string) {
    super(`the account ${cvu} cannot hold more than ${BALANCE_CEILING} centavos`);
  }
}

export interface Move {
  reference: string;
  from: Endpoint;
  to: Endpoint;
  amount: number;
  description: string | null;
  /** Completed at once (money from outside), whatever the confirmation delay. */
  settled?: boolean;
  /** Writes of the caller that must commit with the money or not at all (a sandbox helper's events and audit). */
  alsoInTransaction?: (tx: Tx, transfer: RailTransfersTable, credit: RailLegsTable) => Promise<void>;
}

export type MoveOutcome =
  | { kind: 'moved'; transfer: RailTransfersTable; credit: RailLegsTable }
  /** The reference moved money before: that transfer is the answer, and this move changed nothing. */
  | { kind: 'already_moved' }
  | { kind: 'insufficient_funds' }
  /** The destination would hold more than BALANCE_CEILING: nothing moved. */
  | { kind: 'over_ceiling' };

/**
 * A ledger move in a transaction of its own (see `move`). A debit the balance does not cover rolls the whole
 * transaction back, so nothing of the move is kept, and the reference can be submitted again once the money is
 * there. On PostgreSQL a payout to another bank is one statement instead (see `moveToAnotherBank`).
 */
export async function moveInTransaction(store: Store, clock: Clock, confirmDelayMs: number, m: Move): Promise<MoveOutcome> {
  const planned = plan(clock, confirmDelayMs, m);
  if (store.dialect === 'postgres' && m.from.account.kind === 'customer' && m.to.account.kind === 'world' && !m.alsoInTransaction) {
    return moveToAnotherBank(store.db, planned);
  }
  try {
    return await store.transaction((tx) => move(tx, clock, m, planned));
  } catch (err) {
    if (err instanceof InsufficientFunds) return { kind: 'insufficient_funds' };
    if (err instanceof OverCeiling) return { kind: 'over_ceiling' };
    throw err;
  }
}

interface Planned {
  transfer: RailTransfersTable;
  debit: RailLegsTable;
  credit: RailLegsTable;
}

/** The rows a move writes: its transfer and its two legs. */
function plan(clock: Clock, confirmDelayMs: number, m: Move): Planned {
  const now = clock.now();
  const at = now.toISOString();
  const completes = (m.settled || confirmDelayMs === 0) && m.to.scenario !== 'fail';
  const transfer: RailTransfersTable = {
    id: newId('trf', now),
    reference: m.reference,
    from_account_id: m.from.account.id,
    to_account_id: m.to.account.id,
    from_identifier: m.from.identifier,
    from_name: m.from.name,
    from_legal_id: m.from.legalId,
    to_identifier: m.to.identifier,
    to_name: m.to.name,
    to_legal_id: m.to.legalId,
    amount: m.amount,
    status: completes ? 'COMPLETED' : 'IN_PROGRESS',
    failure_reason: null,
    scenario: m.to.scenario,
    description: m.description,
    created_at: at,
    confirm_after: new Date(now.getTime() + confirmDelayMs).toISOString(),
    completed_at: completes ? at : null,
  };
  const debit: RailLegsTable = { id: newId('dep', now), transfer_id: transfer.id, account_id: m.from.account.id, amount: -m.amount, is_reversal: 0, created_at: at };
  const credit: RailLegsTable = { id: newId('dep', now), transfer_id: transfer.id, account_id: m.to.account.id, amount: m.amount, is_reversal: 0, created_at: at };
  return { transfer, debit, credit };
}

/**
 * The ledger move, in the caller's transaction: the transfer row (its unique reference makes a second
 * submission of the same reference move no money: it answers `already_moved`), the balances and the two legs,
 * and the notice of a credit to a customer that completes now. Throws InsufficientFunds when the debit is not
 * covered.
 */
async function move(tx: Tx, clock: Clock, m: Move, { transfer, debit, credit }: Planned): Promise<MoveOutcome> {
  if ((await insertTransfer.run(tx, transfer)).changed === 0) return { kind: 'already_moved' };
  await applyBalances(
    tx,
    [
      { account: m.from.account, delta: -m.amount },
      { account: m.to.account, delta: m.amount },
    ],
    true,
  );
  await insertLegs.run(tx, debit, credit);
  if (transfer.status === 'COMPLETED' && m.to.account.kind === 'customer') await writeNotice(tx, transfer, credit, clock.now());
  if (m.alsoInTransaction) await m.alsoInTransaction(tx, transfer, credit);
  return { kind: 'moved', transfer, credit };
}

/**
 * D42: a payout from a customer to another bank on PostgreSQL, in one statement, so in one round trip with no
 * BEGIN, COMMIT or transaction id to read (it was six round trips of a payout's request path). The statement is
 * atomic as a transaction is: the transfer row claims the reference, and the debit and the legs happen only if it
 * did. A debit the balance does not cover breaks the `rail_accounts_balance_nonnegative` check, which fails the
 * whole statement, so nothing is kept. The world keeps no balance, so only the customer's row is locked. A lost
 * answer is what a real bank's lost answer is: the caller asks about the reference (`getTransfer`).
 */
async function moveToAnotherBank(db: Executor, { transfer: t, debit, credit }: Planned): Promise<MoveOutcome> {
  try {
    const { rows } = await sql<{ moved: number }>`with transfer as (
        insert into rail_transfers (id, reference, from_account_id, to_account_id, from_identifier, from_name, from_legal_id,
          to_identifier, to_name, to_legal_id, amount, status, failure_reason, scenario, description, created_at, confirm_after, completed_at)
        values (${t.id}, ${t.reference}, ${t.from_account_id}, ${t.to_account_id}, ${t.from_identifier}, ${t.from_name}, ${t.from_legal_id},
          ${t.to_identifier}, ${t.to_name}, ${t.to_legal_id}, ${t.amount}, ${t.status}, ${t.failure_reason}, ${t.scenario}, ${t.description},
          ${t.created_at}, ${t.confirm_after}, ${t.completed_at})
        on conflict (reference) do nothing
        returning id
      ), debit as (
        update rail_accounts set balance = balance - ${t.amount}::bigint
        where id = ${t.from_account_id} and exists (select from transfer)
      ), legs as (
        insert into rail_legs (id, transfer_id, account_id, amount, is_reversal, created_at)
        select leg.id, transfer.id, leg.account_id, leg.amount, 0, ${t.created_at}
        from transfer, (values (${debit.id}, ${debit.account_id}, ${debit.amount}::bigint), (${credit.id}, ${credit.account_id}, ${credit.amount}::bigint))
          as leg (id, account_id, amount)
      )
      select count(*)::int as moved from transfer`.execute(db);
    if (rows[0]?.moved !== 1) return { kind: 'already_moved' };
    return { kind: 'moved', transfer: t, credit };
  } catch (err) {
    if ((err as { constraint?: string }).constraint === 'rail_accounts_balance_nonnegative') return { kind: 'insufficient_funds' };
    throw err;
  }
}

/**
 * Settles a transfer whose confirmation time has come: completes it (announcing a credit to a customer), or for
 * `sandbox.fail` fails it and puts the money back with reversal legs, which are not deposits. Returns the
 * settled row, or null when someone else settled it first.
 */
export async function settleTransfer(store: Store, clock: Clock, t: RailTransfersTable): Promise<RailTransfersTable | null> {
  return store.transaction(async (tx) => (await settleManyInTransaction(tx, clock, [t]))[0] ?? null);
}

/**
 * Settles one transfer that does not simply complete to another bank; a failure's balance changes are added to
 * `reversals` for the caller to apply, so that a batch applies all of them in one account order.
 */
async function settleOne(tx: Tx, clock: Clock, t: RailTransfersTable, reversals: BalanceChange[]): Promise<RailTransfersTable | null> {
  const at = clock.now();
  const now = at.toISOString();
  const fails = t.scenario === 'fail';
  const settled: RailTransfersTable = {
    ...t,
    status: fails ? 'FAILED' : 'COMPLETED',
    failure_reason: fails ? 'destination_account_closed' : null,
    completed_at: now,
  };
  const res = await settle.run(tx, { id: t.id, status: settled.status, failure_reason: settled.failure_reason, now });
  if (res.changed !== 1) return null;
  if (fails) {
    reversals.push({ account: accountRef(t.to_account_id), delta: -t.amount }, { account: accountRef(t.from_account_id), delta: t.amount });
    await insertLegs.run(
      tx,
      { id: newId('dep', at), transfer_id: t.id, account_id: t.to_account_id, amount: -t.amount, is_reversal: 1, created_at: now },
      { id: newId('dep', at), transfer_id: t.id, account_id: t.from_account_id, amount: t.amount, is_reversal: 1, created_at: now },
    );
  } else if (t.to_account_id !== WORLD_ACCOUNT_ID) {
    const credit = await tx
      .selectFrom('rail_legs')
      .select(['id', 'created_at'])
      .where('transfer_id', '=', t.id)
      .where('account_id', '=', t.to_account_id)
      .where('is_reversal', '=', 0)
      .executeTakeFirstOrThrow();
    await writeNotice(tx, settled, credit, at);
  }
  return settled;
}

/**
 * Settles many due transfers in the caller's transaction. Those that simply complete to another bank (most
 * payouts) take one update per list; a failure or a credit to a customer is settled one by one, and the
 * failures give their money back together at the end. Returns the settled rows; one settled by someone else
 * meanwhile is left out.
 */
export async function settleManyInTransaction(tx: Tx, clock: Clock, rows: readonly RailTransfersTable[]): Promise<RailTransfersTable[]> {
  const now = clock.now().toISOString();
  const simple = rows.filter((t) => t.scenario !== 'fail' && t.to_account_id === WORLD_ACCOUNT_ID);
  const out: RailTransfersTable[] = [];
  const done = new Set((await completeMany.run(tx, simple.map((t) => t.id), { now })).rows.map((r) => r.id));
  for (const t of simple) if (done.has(t.id)) out.push({ ...t, status: 'COMPLETED', failure_reason: null, completed_at: now });
  const together = new Set(simple);
  const reversals: BalanceChange[] = [];
  for (const t of rows) {
    if (together.has(t)) continue;
    const settled = await settleOne(tx, clock, t, reversals);
    if (settled) out.push(settled);
  }
  // Applied after every failure is known, netted per account and in account order, the order moves lock them in:
  // reversing in transfer order could deadlock with a move on PostgreSQL.
  await applyBalances(tx, netPerAccount(reversals), false);
  return out;
}

type BalanceChange = { account: AccountRef; delta: number };

/** One change per account, the sum of its changes; none for an account whose changes cancel out. */
function netPerAccount(changes: readonly BalanceChange[]): BalanceChange[] {
  const net = new Map<string, BalanceChange>();
  for (const c of changes) {
    const n = net.get(c.account.id);
    if (n) n.delta += c.delta;
    else net.set(c.account.id, { ...c });
  }
  return [...net.values()].filter((c) => c.delta !== 0);
}

const accountRef = (id: string): AccountRef => (id === WORLD_ACCOUNT_ID ? WORLD : { id, kind: 'customer' });

/**
 * Balance changes of one transfer. Customer rows are updated in id order, so two opposite transfers cannot
 * deadlock on PostgreSQL; a debit is conditional on the balance covering it (a CHECK backs it), and throws
 * InsufficientFunds when it does not, for the caller's transaction to roll back; with `capped`, a credit is
 * conditional on staying under BALANCE_CEILING and throws OverCeiling otherwise. The world keeps no running
 * balance: one row every external payout updated would serialise them all on PostgreSQL.
 */
async function applyBalances(tx: Tx, changes: BalanceChange[], capped: boolean): Promise<void> {
  const rows = changes.filter((c) => c.account.kind === 'customer').sort((a, b) => (a.account.id < b.account.id ? -1 : 1));
  for (const c of rows) {
    const debit = c.delta < 0;
    const res = await changeBalance({ debit, capped: capped && !debit }).run(tx, { id: c.account.id, delta: c.delta, needed: -c.delta, room: BALANCE_CEILING - c.delta });
    if (debit && res.changed !== 1) throw new InsufficientFunds();
    if (capped && !debit && res.changed !== 1) throw new OverCeiling();
  }
}

export function toRailTransfer(row: RailTransfersTable): RailTransfer {
  return {
    reference: row.reference,
    providerTransferId: row.id,
    status: row.status,
    failureReason: row.failure_reason,
    counterpartyName: row.to_name,
    counterpartyLegalId: row.to_legal_id,
    counterpartyAccount: row.to_identifier,
    ...(row.status === 'IN_PROGRESS' ? { settlesAfter: row.confirm_after } : {}),
  };
}
