import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { compiled, compiledByShape, compiledForList } from '../../../db/compiled.js';
import { isUniqueViolation, type Store, type Tx } from '../../../db/database.js';
import { isCbu, isCvu, normalizeAlias, type DestinationKind } from '../../../shared/ar-identifiers.js';
import type { Clock } from '../../../shared/clock.js';
import { newId } from '../../../shared/ids.js';
import type {
  BankRail,
  IncomingAck,
  IncomingNotice,
  RailAccount,
  RailTransfer,
  ResolvedAccount,
  SubmitOutcome,
  TransferLeg,
  TransferRequest,
} from '../rail.port.js';
import { NoticeQueue } from '../notice-queue.js';
import { creditLegOf } from './sandbox-incoming.js';
import { BalanceCeilingReached, moveInTransaction, settleManyInTransaction, settleTransfer, toRailTransfer, WORLD, type Endpoint } from './sandbox-ledger.js';
import type { RailAccountsTable, RailTransfersTable } from './sandbox.tables.js';
import { WORLD_ACCOUNT_ID } from './sandbox.tables.js';
import {
  MAGIC_CBUS,
  magicHolderName,
  magicScenarioOfAccount,
  magicScenarioOfAlias,
  randomAlias,
  randomCvu,
  SANDBOX_CVU_PREFIX,
  syntheticLegalId,
  type MagicScenario,
} from './sandbox-names.js';

type Account = RailAccountsTable;
/** What the sandbox reads of an account to move money: all of it but the balance, the one field that changes. */
type KnownAccount = Omit<Account, 'balance'>;

/** Accounts kept by CVU: a payout's origin is read once, not on every payout. */
const KNOWN_ACCOUNTS_MAX = 10_000;

const transferByReference = compiled<{ reference: string }, RailTransfersTable>((db, a) => db.selectFrom('rail_transfers').selectAll().where('reference', '=', a.reference));
const balanceOfCvu = compiled<{ cvu: string }, Pick<RailAccountsTable, 'balance'>>((db, a) =>
  db.selectFrom('rail_accounts').select('balance').where('cvu', '=', a.cvu),
);
const transfersByReferences = compiledForList<object, RailTransfersTable>((db, _a, references) =>
  db.selectFrom('rail_transfers').selectAll().where('reference', 'in', references),
);

/** The accounts a submission or resolution reads, by shape: how many account numbers, and whether an alias. */
const accountsStatement = compiledByShape<{ cvus: number; alias: boolean }, Record<string, string>, Account>((db, a, shape) =>
  db
    .selectFrom('rail_accounts')
    .selectAll()
    .where((eb) =>
      eb.or([
        ...(shape.cvus > 0 ? [eb('cvu', 'in', Array.from({ length: shape.cvus }, (_, i) => a[`cvu${i}`]!))] : []),
        ...(shape.alias ? [eb('alias', '=', a.alias!)] : []),
      ]),
    ),
);

/** What a destination names, known without the store: a magic account, a customer alias, or an account number. */
type Lookup = { scenario: MagicScenario; number: string } | { alias: string } | { number: string };

/**
 * A simulated bank (D25) with a double-entry ledger: every transfer is legs that sum to zero, customer balances
 * never go negative (a conditional update and a CHECK constraint), and a transfer reference moves money at most
 * once (a unique constraint). Transfers are `IN_PROGRESS` until `confirmDelayMs` has passed, then `settleDue`
 * completes them (or, for `sandbox.fail`, fails them and puts the money back). Each completed credit to a
 * customer leaves a notice, taken with `takeIncoming` the way a BaaS's incoming-transfer webhooks would be.
 */
export class SandboxRail implements BankRail {
  private readonly incoming: NoticeQueue;
  private readonly db: Kysely<Database>;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly confirmDelayMs: number,
  ) {
    this.db = store.db;
    // Answered notices are deleted: the credit leg itself keeps a repeat from being written twice.
    this.incoming = new NoticeQueue(store.db, store.dialect, clock, 'rail_incoming_notices', 'delete');
  }

  async openAccount(input: { ownerRef: string; legalId: string; legalName: string }): Promise<RailAccount> {
    for (let attempt = 0; ; attempt++) {
      const existing = await this.db
        .selectFrom('rail_accounts')
        .select(['cvu', 'alias'])
        .where('owner_ref', '=', input.ownerRef)
        .executeTakeFirst();
      if (existing) return { cvu: existing.cvu!, alias: existing.alias ?? '' };
      const row: Account = {
        id: newId('acc', this.clock.now()),
        owner_ref: input.ownerRef,
        cvu: randomCvu(),
        alias: attempt < 5 ? randomAlias() : `${randomAlias().slice(0, 14)}.${attempt}`,
        holder_name: input.legalName,
        holder_legal_id: input.legalId,
        kind: 'customer',
        balance: 0,
        created_at: this.clock.now().toISOString(),
      };
      try {
        await this.db.insertInto('rail_accounts').values(row).execute();
        return { cvu: row.cvu!, alias: row.alias! };
      } catch (e) {
        // A taken alias or CVU, or a concurrent open for the same owner: read again or pick new names.
        if (!isUniqueViolation(e) || attempt > 20) throw e;
      }
    }
  }

  async resolve(kind: DestinationKind, value: string): Promise<ResolvedAccount | null> {
    const lookup = lookupOf(kind, value);
    if (!lookup) return null;
    const ep = endpointOf(lookup, await this.accounts(null, lookup));
    if (!ep) return null;
    return { kind, accountNumber: ep.identifier, holderName: ep.name, holderLegalId: ep.legalId };
  }

  async getBalance(cvu: string): Promise<number> {
    const row = await balanceOfCvu.first(this.db, { cvu });
    return row ? Number(row.balance) : 0;
  }

  async listLegs(cvu: string, limit: number): Promise<TransferLeg[]> {
    const rows = await this.db
      .selectFrom('rail_legs as l')
      .innerJoin('rail_transfers as t', 't.id', 'l.transfer_id')
      .innerJoin('rail_accounts as a', 'a.id', 'l.account_id')
      .select([
        'l.id',
        'l.amount',
        'l.is_reversal',
        'l.created_at',
        't.from_identifier',
        't.from_name',
        't.from_legal_id',
        't.to_identifier',
        't.to_name',
        't.to_legal_id',
        't.status',
      ])
      .where('a.cvu', '=', cvu)
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => {
      const reversal = r.is_reversal === 1;
      // A reversal flows back from the original destination to the original origin.
      const [from, fromName, fromLegalId, to, toName, toLegalId] = reversal
        ? [r.to_identifier, r.to_name, r.to_legal_id, r.from_identifier, r.from_name, r.from_legal_id]
        : [r.from_identifier, r.from_name, r.from_legal_id, r.to_identifier, r.to_name, r.to_legal_id];
      return {
        id: r.id,
        from,
        to,
        fromName,
        toName,
        fromLegalId,
        toLegalId,
        amountCentavos: Math.abs(Number(r.amount)),
        currency: 'ARS' as const,
        status: reversal ? 'REVERSED' : r.status,
        creationTime: r.created_at,
        direction: Number(r.amount) > 0 ? ('credit' as const) : ('debit' as const),
        isReversal: reversal,
      };
    });
  }

  /**
   * One read for both accounts (often none: see `accounts`), then one transaction whose first write claims the
   * reference (`move`). A reference seen before is answered from the rail's record of it, never moved again.
   */
  async submitTransfer(req: TransferRequest): Promise<SubmitOutcome> {
    if (!Number.isSafeInteger(req.amountCentavos) || req.amountCentavos <= 0) {
      return { kind: 'rejected', reason: 'invalid_request', message: 'Amount must be a positive number of centavos' };
    }
    const lookup = lookupOf(req.toKind, req.to);
    const rows = await this.accounts(req.fromCvu, lookup);
    const sides = admit(
      rows.find((r) => r.cvu === req.fromCvu),
      lookup ? endpointOf(lookup, rows) : null,
    );
    if ('kind' in sides) {
      // A reference that already moved money keeps that answer, whatever the destination looks like now.
      const prior = await this.getTransfer(req.reference);
      return prior ? { kind: 'accepted', transfer: prior } : sides;
    }
    const { from, to } = sides;

    const moved = await moveInTransaction(this.store, this.clock, this.confirmDelayMs, {
      reference: req.reference,
      from: customerEndpoint(from),
      to,
      amount: req.amountCentavos,
      description: req.description ?? null,
    });
    if (moved.kind === 'insufficient_funds') {
      return { kind: 'rejected', reason: 'insufficient_funds', message: 'Insufficient balance in the origin account' };
    }
    if (moved.kind === 'over_ceiling') {
      return { kind: 'rejected', reason: 'destination_rejected', message: 'The destination account cannot hold that much money' };
    }
    if (moved.kind === 'already_moved') {
      // Submitted before (a retry, or a concurrent submission that won): that transfer is the answer.
      const prior = await this.getTransfer(req.reference);
      if (prior) return { kind: 'accepted', transfer: prior };
      return { kind: 'unknown', message: 'The reference is taken but its transfer could not be read' };
    }
    if (to.scenario === 'timeout') return { kind: 'unknown', message: 'The rail did not answer in time' };
    return { kind: 'accepted', transfer: toRailTransfer(moved.transfer) };
  }

  async getTransfer(reference: string): Promise<RailTransfer | null> {
    const row = await transferByReference.first(this.db, { reference });
    if (!row) return null;
    if (row.status === 'IN_PROGRESS' && row.confirm_after <= this.clock.now().toISOString()) {
      const settled = await settleTransfer(this.store, this.clock, row);
      if (settled) return toRailTransfer(settled);
      return this.getTransfer(reference); // settled by someone else meanwhile
    }
    return toRailTransfer(row);
  }

  async getTransfers(references: readonly string[]): Promise<Map<string, RailTransfer>> {
    const rows = await transfersByReferences.all(this.db, references, {});
    const now = this.clock.now().toISOString();
    const due = rows.filter((r) => r.status === 'IN_PROGRESS' && r.confirm_after <= now);
    const settled = await this.settleMany(due);
    const out = new Map<string, RailTransfer>();
    for (const r of rows) out.set(r.reference, toRailTransfer(settled.get(r.id) ?? r));
    // Not settled here: settled by someone else meanwhile, or it could not be settled now. Either way the
    // answer is what the store holds (a later question settles it then), never an error for the whole list.
    for (const r of due) {
      if (settled.has(r.id)) continue;
      const row = await transferByReference.first(this.db, { reference: r.reference });
      if (row) out.set(r.reference, toRailTransfer(row));
    }
    return out;
  }

  /**
   * Settles due transfers in one transaction, in id order so that two nodes settling overlapping batches lock
   * them in the same order. If that transaction fails, each is settled on its own, so one that cannot be settled
   * does not hold back the others. Returns the settled rows by id; one settled by someone else is left out.
   */
  private async settleMany(rows: readonly RailTransfersTable[]): Promise<Map<string, RailTransfersTable>> {
    const sorted = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const out = new Map<string, RailTransfersTable>();
    if (sorted.length === 0) return out;
    try {
      await this.store.transaction(async (tx) => {
        for (const s of await settleManyInTransaction(tx, this.clock, sorted)) out.set(s.id, s);
      });
      return out;
    } catch (e) {
      out.clear();
      if (sorted.length === 1) throw e;
      let first: unknown = null;
      for (const t of sorted) {
        try {
          const s = await settleTransfer(this.store, this.clock, t);
          if (s) out.set(t.id, s);
        } catch (err) {
          first ??= err;
        }
      }
      if (out.size === 0 && first) throw first;
      return out;
    }
  }

  takeIncoming(limit: number): Promise<IncomingNotice[]> {
    return this.incoming.take(limit);
  }

  oldestIncoming(): Promise<string | null> {
    return this.incoming.oldestPending();
  }

  /** When the oldest transfer still to settle fell due (ISO 8601), or null when none (for /metrics). */
  async oldestUnsettled(): Promise<string | null> {
    const row = await this.db
      .selectFrom('rail_transfers')
      .select('confirm_after')
      .where('status', '=', sql.lit('IN_PROGRESS'))
      .orderBy('confirm_after')
      .limit(1)
      .executeTakeFirst();
    return row?.confirm_after ?? null;
  }

  ackIncoming(acks: readonly IncomingAck[]): Promise<void> {
    return this.incoming.ack(acks);
  }

  /** Settles every transfer whose confirmation time has come. Returns how many it settled. */
  async settleDue(limit = 500): Promise<number> {
    const due = await this.db
      .selectFrom('rail_transfers')
      .selectAll()
      .where('status', '=', sql.lit('IN_PROGRESS'))
      .where('confirm_after', '<=', this.clock.now().toISOString())
      .orderBy('confirm_after')
      .limit(limit)
      .execute();
    return (await this.settleMany(due)).size;
  }

  /**
   * Sandbox helper (D26): money arrives at `cvu` from an account at another bank. `alsoInTransaction` runs in the
   * move's transaction with the credit leg, for the caller's rows that must commit with the money (events, audit).
   */
  async depositFromOutside(
    input: {
      cvu: string;
      amountCentavos: number;
      fromCbu: string;
      fromName: string;
      fromLegalId: string;
    },
    alsoInTransaction?: (tx: Tx, leg: TransferLeg) => Promise<void>,
  ): Promise<TransferLeg> {
    const [to] = await this.accounts(input.cvu, null);
    if (!to) throw new Error(`no sandbox account has the CVU ${input.cvu}`);
    const moved = await moveInTransaction(this.store, this.clock, this.confirmDelayMs, {
      reference: newId('trf', this.clock.now()),
      from: { account: WORLD, identifier: input.fromCbu, name: input.fromName, legalId: input.fromLegalId, scenario: null },
      to: customerEndpoint(to),
      amount: input.amountCentavos,
      description: 'sandbox deposit',
      settled: true,
      alsoInTransaction: alsoInTransaction && ((tx, transfer, credit) => alsoInTransaction(tx, creditLegOf(transfer, credit))),
    });
    if (moved.kind === 'over_ceiling') throw new BalanceCeilingReached(input.cvu);
    if (moved.kind !== 'moved') throw new Error(`a deposit from outside could not move: ${moved.kind}`);
    return creditLegOf(moved.transfer, moved.credit);
  }

  /**
   * The world's balance, derived from its legs (it keeps no running total): minus all money inside the sandbox.
   * For audits and tests; nothing on the payout path needs it.
   */
  async worldBalance(): Promise<number> {
    const r = await this.db
      .selectFrom('rail_legs')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
      .where('account_id', '=', WORLD_ACCOUNT_ID)
      .executeTakeFirstOrThrow();
    return Number(r.total);
  }

  /**
   * The accounts a transfer names, in one read: its origin by CVU, and its destination when that can be a
   * customer here (every customer holds a CVU under this bank's prefix, so a CBU or another provider's CVU, the
   * usual payout, lands at another bank without a read). An account's id, CVU, alias and holder never change once
   * opened, so every account read is kept by CVU (the oldest dropped past KNOWN_ACCOUNTS_MAX); a transfer whose
   * CVUs are all kept reads nothing, and an alias is always read.
   */
  private async accounts(fromCvu: string | null, lookup: Lookup | null): Promise<KnownAccount[]> {
    const mayBeCustomer = lookup && 'number' in lookup && !('scenario' in lookup) && lookup.number.startsWith(SANDBOX_CVU_PREFIX);
    const cvus = [...(fromCvu ? [fromCvu] : []), ...(mayBeCustomer ? [lookup.number] : [])];
    const alias = lookup && 'alias' in lookup ? lookup.alias : null;
    if (cvus.length === 0 && !alias) return [];
    if (!alias) {
      const known = cvus.map((c) => this.known.get(c));
      if (known.every((k) => k !== undefined)) return known;
    }
    const args: Record<string, string> = Object.fromEntries(cvus.map((c, i) => [`cvu${i}`, c]));
    if (alias) args.alias = alias;
    const rows: KnownAccount[] = await accountsStatement({ cvus: cvus.length, alias: alias !== null }).all(this.db, args);
    for (const { balance: _, ...row } of rows as Account[]) {
      if (row.kind !== 'customer' || !row.cvu) continue;
      if (this.known.size >= KNOWN_ACCOUNTS_MAX) this.known.delete(this.known.keys().next().value!);
      this.known.set(row.cvu, row);
    }
    return rows;
  }

  private readonly known = new Map<string, KnownAccount>();
}

/** The two sides of a transfer the sandbox will make, or why it refuses at submission. */
function admit(from: KnownAccount | undefined, to: Endpoint | null): { from: KnownAccount; to: Endpoint } | Extract<SubmitOutcome, { kind: 'rejected' }> {
  if (!to) return { kind: 'rejected', reason: 'destination_not_found', message: 'The destination account does not exist' };
  if (to.scenario === 'reject') return { kind: 'rejected', reason: 'destination_rejected', message: 'The destination bank rejected the transfer' };
  if (!from) return { kind: 'rejected', reason: 'invalid_request', message: 'Unknown origin account' };
  if (from.id === to.account.id) return { kind: 'rejected', reason: 'invalid_request', message: 'Origin and destination are the same account' };
  return { from, to };
}

function lookupOf(kind: DestinationKind, value: string): Lookup | null {
  if (kind === 'ALIAS') {
    const alias = normalizeAlias(value);
    const scenario = magicScenarioOfAlias(alias);
    return scenario ? { scenario, number: MAGIC_CBUS[scenario] } : { alias };
  }
  if (!(kind === 'CVU' ? isCvu(value) : isCbu(value))) return null;
  const scenario = magicScenarioOfAccount(value);
  return scenario ? { scenario, number: value } : { number: value };
}

/** Where a destination lands: a magic account, a sandbox customer, or an account at another bank. */
function endpointOf(lookup: Lookup, rows: KnownAccount[]): Endpoint | null {
  if ('scenario' in lookup) {
    const { scenario, number } = lookup;
    return { account: WORLD, identifier: number, name: magicHolderName(scenario), legalId: syntheticLegalId(number), scenario };
  }
  const acc = rows.find((r) => r.kind === 'customer' && ('alias' in lookup ? r.alias === lookup.alias : r.cvu === lookup.number));
  if (acc) return customerEndpoint(acc);
  if ('alias' in lookup) return null;
  const n = lookup.number;
  return { account: WORLD, identifier: n, name: `Titular cuenta ${n.slice(-4)}`, legalId: syntheticLegalId(n), scenario: null };
}

const customerEndpoint = (acc: KnownAccount): Endpoint => ({
  account: acc,
  identifier: acc.cvu!,
  name: acc.holder_name,
  legalId: acc.holder_legal_id,
  scenario: null,
});
