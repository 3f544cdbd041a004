import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { isUniqueViolation, type Tx } from '../../../db/database.js';
import { isCbu, isCvu, normalizeAlias, type DestinationKind } from '../../../shared/ar-identifiers.js';
import type { Clock } from '../../../shared/clock.js';
import { newId } from '../../../shared/ids.js';
import type {
  BankRail,
  RailAccount,
  RailTransfer,
  ResolvedAccount,
  SubmitOutcome,
  TransferLeg,
  TransferRequest,
} from '../rail.port.js';
import type { RailAccountsTable, RailTransfersTable } from './sandbox.tables.js';
import { WORLD_ACCOUNT_ID } from './sandbox.tables.js';
import {
  EXTERNAL_CBU,
  MAGIC_ALIASES,
  randomAlias,
  randomCvu,
  syntheticLegalId,
  type MagicScenario,
} from './sandbox-names.js';

type Account = RailAccountsTable;
interface Endpoint {
  account: Account;
  identifier: string;
  name: string;
  legalId: string;
  scenario: MagicScenario | null;
}

/**
 * A simulated bank (D25) with a double-entry ledger: every transfer is legs that sum to zero, customer balances
 * never go negative (a conditional update and a CHECK constraint), and a transfer reference moves money at most
 * once (a unique constraint). Transfers are `IN_PROGRESS` until `confirmDelayMs` has passed, then `settleDue`
 * completes them (or, for `sandbox.fail`, fails them and puts the money back).
 */
export class SandboxRail implements BankRail {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly confirmDelayMs: number,
  ) {}

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
    const ep = await this.endpoint(this.db, kind, value);
    if (!ep) return null;
    return { kind, accountNumber: ep.identifier, holderName: ep.name, holderLegalId: ep.legalId };
  }

  async getBalance(cvu: string): Promise<number> {
    const row = await this.db.selectFrom('rail_accounts').select('balance').where('cvu', '=', cvu).executeTakeFirst();
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

  async submitTransfer(req: TransferRequest): Promise<SubmitOutcome> {
    if (!Number.isSafeInteger(req.amountCentavos) || req.amountCentavos <= 0) {
      return { kind: 'rejected', reason: 'invalid_request', message: 'Amount must be a positive number of centavos' };
    }
    const prior = await this.getTransfer(req.reference);
    if (prior) return { kind: 'accepted', transfer: prior };

    const to = await this.endpoint(this.db, req.toKind, req.to);
    if (!to) return { kind: 'rejected', reason: 'destination_not_found', message: 'The destination account does not exist' };
    if (to.scenario === 'reject') {
      return { kind: 'rejected', reason: 'destination_rejected', message: 'The destination bank rejected the transfer' };
    }
    const from = await this.db.selectFrom('rail_accounts').selectAll().where('cvu', '=', req.fromCvu).executeTakeFirst();
    if (!from) return { kind: 'rejected', reason: 'invalid_request', message: 'Unknown origin account' };
    if (from.id === to.account.id) {
      return { kind: 'rejected', reason: 'invalid_request', message: 'Origin and destination are the same account' };
    }

    try {
      await this.db.transaction().execute((tx) =>
        this.move(tx, {
          reference: req.reference,
          from: { account: from, identifier: from.cvu!, name: from.holder_name, legalId: from.holder_legal_id, scenario: null },
          to,
          amount: req.amountCentavos,
          description: req.description ?? null,
        }),
      );
    } catch (e) {
      if (e instanceof InsufficientFunds) {
        return { kind: 'rejected', reason: 'insufficient_funds', message: 'Insufficient balance in the origin account' };
      }
      if (!isUniqueViolation(e)) throw e;
      // The same reference was submitted concurrently and won: that transfer is the answer.
    }
    const transfer = (await this.getTransfer(req.reference))!;
    if (to.scenario === 'timeout') return { kind: 'unknown', message: 'The rail did not answer in time' };
    return { kind: 'accepted', transfer };
  }

  async getTransfer(reference: string): Promise<RailTransfer | null> {
    const row = await this.db.selectFrom('rail_transfers').selectAll().where('reference', '=', reference).executeTakeFirst();
    if (!row) return null;
    if (row.status === 'IN_PROGRESS' && row.confirm_after <= this.clock.now().toISOString()) {
      await this.settle(row);
      return this.getTransfer(reference);
    }
    return toRailTransfer(row);
  }

  /** Settles every transfer whose confirmation time has come. Returns how many it settled. */
  async settleDue(limit = 500): Promise<number> {
    const due = await this.db
      .selectFrom('rail_transfers')
      .selectAll()
      .where('status', '=', 'IN_PROGRESS')
      .where('confirm_after', '<=', this.clock.now().toISOString())
      .orderBy('confirm_after')
      .limit(limit)
      .execute();
    let n = 0;
    for (const t of due) if (await this.settle(t)) n++;
    return n;
  }

  /** Sandbox helper (D26): money arrives at `cvu` from an account at another bank. */
  async depositFromOutside(input: {
    cvu: string;
    amountCentavos: number;
    fromCbu: string;
    fromName: string;
    fromLegalId: string;
  }): Promise<TransferLeg> {
    const to = await this.db.selectFrom('rail_accounts').selectAll().where('cvu', '=', input.cvu).executeTakeFirstOrThrow();
    const world = await this.db.selectFrom('rail_accounts').selectAll().where('id', '=', WORLD_ACCOUNT_ID).executeTakeFirstOrThrow();
    const reference = newId('trf', this.clock.now());
    await this.db.transaction().execute((tx) =>
      this.move(tx, {
        reference,
        from: { account: world, identifier: input.fromCbu, name: input.fromName, legalId: input.fromLegalId, scenario: null },
        to: { account: to, identifier: to.cvu!, name: to.holder_name, legalId: to.holder_legal_id, scenario: null },
        amount: input.amountCentavos,
        description: 'sandbox deposit',
        settled: true,
      }),
    );
    const legs = await this.listLegs(input.cvu, 5);
    return legs.find((l) => l.direction === 'credit')!;
  }

  /**
   * The ledger move: debit (only if the balance covers it), credit, transfer row and its two legs, in one
   * transaction. Rows are updated in id order so two opposite transfers cannot deadlock on PostgreSQL.
   * Throws InsufficientFunds (rolling the transaction back) when the origin's balance does not cover it.
   */
  private async move(
    tx: Tx,
    m: { reference: string; from: Endpoint; to: Endpoint; amount: number; description: string | null; settled?: boolean },
  ): Promise<void> {
    const now = this.clock.now();
    const debit = async () => {
      const q = tx.updateTable('rail_accounts').set((eb) => ({ balance: eb('balance', '-', m.amount) })).where('id', '=', m.from.account.id);
      const res = await (m.from.account.kind === 'world' ? q : q.where('balance', '>=', m.amount)).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    };
    const credit = async () => {
      await tx.updateTable('rail_accounts').set((eb) => ({ balance: eb('balance', '+', m.amount) })).where('id', '=', m.to.account.id).execute();
      return true;
    };
    const steps = m.from.account.id < m.to.account.id ? [debit, credit] : [credit, debit];
    for (const step of steps) {
      if (!(await step())) throw new InsufficientFunds();
    }
    const transferId = newId('trf', now);
    const settledNow = m.settled || this.confirmDelayMs === 0;
    await tx
      .insertInto('rail_transfers')
      .values({
        id: transferId,
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
        status: settledNow && m.to.scenario !== 'fail' ? 'COMPLETED' : 'IN_PROGRESS',
        failure_reason: null,
        scenario: m.to.scenario,
        description: m.description,
        created_at: now.toISOString(),
        confirm_after: new Date(now.getTime() + this.confirmDelayMs).toISOString(),
        completed_at: settledNow && m.to.scenario !== 'fail' ? now.toISOString() : null,
      })
      .execute();
    await tx
      .insertInto('rail_legs')
      .values([
        { id: newId('dep', now), transfer_id: transferId, account_id: m.from.account.id, amount: -m.amount, is_reversal: 0, created_at: now.toISOString() },
        { id: newId('dep', now), transfer_id: transferId, account_id: m.to.account.id, amount: m.amount, is_reversal: 0, created_at: now.toISOString() },
      ])
      .execute();
  }

  private async settle(t: RailTransfersTable): Promise<boolean> {
    const at = this.clock.now();
    const now = at.toISOString();
    return this.db.transaction().execute(async (tx) => {
      const fails = t.scenario === 'fail';
      const res = await tx
        .updateTable('rail_transfers')
        .set({
          status: fails ? 'FAILED' : 'COMPLETED',
          failure_reason: fails ? 'destination_account_closed' : null,
          completed_at: now,
        })
        .where('id', '=', t.id)
        .where('status', '=', 'IN_PROGRESS')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false; // settled by someone else
      if (fails) {
        // The money comes back: reversal legs mirror the original ones.
        await tx.updateTable('rail_accounts').set((eb) => ({ balance: eb('balance', '-', t.amount) })).where('id', '=', t.to_account_id).execute();
        await tx.updateTable('rail_accounts').set((eb) => ({ balance: eb('balance', '+', t.amount) })).where('id', '=', t.from_account_id).execute();
        await tx
          .insertInto('rail_legs')
          .values([
            { id: newId('dep', at), transfer_id: t.id, account_id: t.to_account_id, amount: -t.amount, is_reversal: 1, created_at: now },
            { id: newId('dep', at), transfer_id: t.id, account_id: t.from_account_id, amount: t.amount, is_reversal: 1, created_at: now },
          ])
          .execute();
      }
      return true;
    });
  }

  /** Where a destination lands: a sandbox customer, a magic alias, or an account at another bank. */
  private async endpoint(db: Kysely<Database>, kind: DestinationKind, value: string): Promise<Endpoint | null> {
    if (kind === 'ALIAS') {
      const alias = normalizeAlias(value);
      const scenario = (MAGIC_ALIASES as Record<string, MagicScenario>)[alias] ?? null;
      if (scenario) {
        const world = await db.selectFrom('rail_accounts').selectAll().where('id', '=', WORLD_ACCOUNT_ID).executeTakeFirstOrThrow();
        return { account: world, identifier: EXTERNAL_CBU, name: `Sandbox ${scenario}`, legalId: syntheticLegalId(EXTERNAL_CBU), scenario };
      }
      const acc = await db.selectFrom('rail_accounts').selectAll().where('alias', '=', alias).executeTakeFirst();
      return acc ? customerEndpoint(acc) : null;
    }
    if (!(kind === 'CVU' ? isCvu(value) : isCbu(value))) return null;
    const acc = await db.selectFrom('rail_accounts').selectAll().where('cvu', '=', value).executeTakeFirst();
    if (acc) return customerEndpoint(acc);
    const world = await db.selectFrom('rail_accounts').selectAll().where('id', '=', WORLD_ACCOUNT_ID).executeTakeFirstOrThrow();
    return { account: world, identifier: value, name: `Titular cuenta ${value.slice(-4)}`, legalId: syntheticLegalId(value), scenario: null };
  }
}

class InsufficientFunds extends Error {}

const customerEndpoint = (acc: Account): Endpoint => ({
  account: acc,
  identifier: acc.cvu!,
  name: acc.holder_name,
  legalId: acc.holder_legal_id,
  scenario: null,
});

function toRailTransfer(row: RailTransfersTable): RailTransfer {
  return {
    reference: row.reference,
    providerTransferId: row.id,
    status: row.status,
    failureReason: row.failure_reason,
    counterpartyName: row.to_name,
    counterpartyLegalId: row.to_legal_id,
    counterpartyAccount: row.to_identifier,
  };
}
