import type { FastifyBaseLogger } from 'fastify';
import { isCvu, type DestinationKind } from '../../../shared/ar-identifiers.js';
import type { Clock } from '../../../shared/clock.js';
import { randomAlias } from '../sandbox/sandbox-names.js';
import type {
  BankRail,
  IncomingAck,
  IncomingNotice,
  RailAccount,
  RailRejectReason,
  RailTransfer,
  RailTransferStatus,
  ResolvedAccount,
  SubmitOutcome,
  TransferLeg,
  TransferRequest,
} from '../rail.port.js';
import { RailBusyError, RailPartialAnswer } from '../rail.port.js';
import type { BindClient, BindResult } from './bind-client.js';
import { creditOf, unreadableCredit, type BindInbox } from './bind-inbox.js';
import { BIND_PATHS, RECEIVED, centavosOf, decimal, pesosOf, type BindAccountLookup, type BindTransfer } from './bind-wire.js';

/** How many status queries the follow-up's batch sends to BIND at once (BIND has no batch query). */
const STATUS_PARALLELISM = 4;
/** 4xx answers to a transfer that do not say BIND refused it, nor that it never acted on it. */
const UNANSWERED_4XX = new Set([408, 409, 425]);
/** Answers to a transfer call that mean BIND never acted on it (0: no token, so never sent). */
const TURNED_AWAY = new Set([0, 401, 429]);
/**
 * When to ask again about a transfer BIND cannot say about: `UNKNOWN` ("se intenta resolver durante el día") or a
 * state we do not know in a minute, `UNKNOWN_FOREVER` (BIND gave up; it takes a claim) in an hour. Asked at the
 * follow-up's pace (every second) such a transfer was a query, and for UNKNOWN_FOREVER an error line, per second.
 */
const UNRESOLVED_RECHECK_MS = 60_000;
const GAVE_UP_RECHECK_MS = 3_600_000;
/**
 * A transfer still on its way (IN_PROGRESS, PENDING) is asked about again after a quarter of its age, between 2 s
 * and a minute: most settle in seconds, while one to a CVU "puede quedar en IN_PROGRESS hasta el cierre del día",
 * and asked at the follow-up's pace that was a query a second per payout, enough for BIND to turn calls away.
 */
const IN_FLIGHT_RECHECK_MIN_MS = 2_000;
const IN_FLIGHT_RECHECK_MAX_MS = 60_000;
const IN_FLIGHT_RECHECK_UNDATED_MS = 10_000;
/** Page size of the transfers listing the reconciliation reads. */
const LISTING_PAGE = 100;
/** The reconciliation looks this far back: today and the two days before (Buenos Aires days). */
const RECONCILE_DAYS = 2;

/**
 * The production rail (D43): BIND's PSP API behind the BankRail port. Transfers go to "Realizar Transferencia"
 * with our 15-character reference as `origin_id`, which BIND documents as idempotent (a repeat answers the
 * original), and their state is asked by that same id. HTTP 200 is "accepted", not "done"; `UNKNOWN`, timeouts
 * and 5xx are the port's `unknown`, never a failure. Incoming credits arrive as BIND's webhook into our inbox
 * (`bind.routes.ts`), and `reconcile` lists BIND's recent credits to add what a lost webhook missed. The mapping
 * and what BIND leaves undocumented: docs/bank-rail.md.
 */
export class BindRail implements BankRail {
  constructor(
    private readonly client: BindClient,
    private readonly inbox: BindInbox,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * "Crear CVU" with our user id as `client_id` (BIND: unique per CVU, so a retry answers the same CVU), then
   * "Asignar alias" with three words unless the CVU already has one. Safe to repeat as a whole.
   */
  async openAccount(input: { ownerRef: string; legalId: string; legalName: string }): Promise<RailAccount> {
    const created = this.must(
      await this.retryUnanswered(() =>
        this.client.call<{ cvu: string; label: string | null }>('POST', BIND_PATHS.createCvu, {
          body: { client_id: input.ownerRef, cuit: input.legalId, name: input.legalName.slice(0, 100) },
        }),
      ),
      'Crear CVU',
    );
    if (!created.cvu) throw new Error('BIND Crear CVU: no cvu in the answer');
    if (created.label) return { cvu: created.cvu, alias: created.label };
    let last = '';
    for (let i = 0; i < 5; i++) {
      const label = randomAlias();
      const r = await this.retryUnanswered(() =>
        this.client.call<{ cvu: string; label: string }>('POST', BIND_PATHS.assignAlias, { body: { cuit: input.legalId, cvu: created.cvu, label } }),
      );
      if (r.kind === 'ok') return { cvu: created.cvu, alias: r.body.label || label };
      last = r.message;
      // An alias already taken elsewhere answers 4xx: another three words. Anything else is not ours to fix.
      if (r.kind !== 'error' || r.status < 400 || r.status >= 500) break;
    }
    throw new Error(`BIND Asignar alias: ${last}`);
  }

  /** "Consultar cuenta x CBU/CVU/alias": 404 (not a valid CBU/CVU) and 422 (alias unknown or malformed) are "no such account". */
  async resolve(kind: DestinationKind, value: string): Promise<ResolvedAccount | null> {
    const query: Record<string, string> = kind === 'ALIAS' ? { alias: value } : { cbuOrCvu: value };
    const r = await this.retryUnanswered(() => this.client.call<BindAccountLookup>('GET', BIND_PATHS.lookup, { query }));
    if (r.kind === 'error' && (r.status === 404 || r.status === 422)) return null;
    const a = this.must(r, 'Consultar cuenta');
    if (!a || a.activo === false || !a.cbucvu) return null;
    const accountNumber = a.cbucvu;
    return {
      kind: kind === 'ALIAS' ? 'ALIAS' : isCvu(accountNumber) ? 'CVU' : 'CBU',
      accountNumber,
      holderName: a.nombre ?? '',
      holderLegalId: (a.cuitCuil ?? '').replace(/-/g, ''),
      bankName: a.bancoNombre ?? null,
    };
  }

  /** "Consultar saldo" of one CVU (the `cvu` header, as the transfers listing takes its filters). */
  async getBalance(cvu: string): Promise<number> {
    const b = this.must(await this.retryUnanswered(() => this.client.call<{ saldo: string }>('GET', BIND_PATHS.balance, { headers: { cvu } })), 'Consultar saldo');
    const c = centavosOf(b?.saldo);
    if (c === null) throw new Error('BIND Consultar saldo: the balance is not an exact amount');
    return c;
  }

  /** "Consultar Transferencias" of one CVU, both ways, newest first. */
  async listLegs(cvu: string, limit: number): Promise<TransferLeg[]> {
    const items = listOf(
      this.must(await this.retryUnanswered(() => this.client.call<unknown>('GET', BIND_PATHS.transfers, { headers: { cvu, start: '1', length: String(limit) } })), 'Consultar transferencias'),
    );
    // A transfer between two of our CVUs shows in the payee's listing twice: as the payer's transfer and as the
    // credit received, both carrying its Coelsa id. The received one is the payee's deposit.
    // A credit received by another account is there because this one paid it: the payer's leg is its transfer.
    const creditsHere = items.filter((t) => isReceived(t) && t.details?.origin_credit?.cvu === cvu);
    const received = new Set(creditsHere.map((t) => t.id));
    return items.flatMap((t) => {
      if (isReceived(t) ? !creditsHere.includes(t) : (t.transaction_ids ?? []).some((id) => received.has(id))) return [];
      const leg = legOf(t, cvu, this.clock.now().toISOString());
      return leg ? [leg] : [];
    });
  }

  async submitTransfer(req: TransferRequest): Promise<SubmitOutcome> {
    const to = req.toKind === 'ALIAS' ? { cbu: null, alias: req.to } : { cbu: req.to, alias: null };
    // Never resent here (D19): an unanswered call is `unknown`, and the caller asks by `origin_id`.
    const r = await this.client.call<BindTransfer>('POST', BIND_PATHS.transfer, {
      body: {
        origin_id: req.reference,
        origin_debit: { cvu: req.fromCvu },
        to,
        value: { currency: 'ARS', amount: decimal(pesosOf(req.amountCentavos)) },
        description: (req.description ?? 'Varios').slice(0, 100) || 'Varios',
        concepto: 'VAR',
      },
    });
    if (r.kind === 'unanswered') return { kind: 'unknown', message: r.message };
    if (r.kind === 'error') {
      // A 429 or 503 with Retry-After: BIND turned the call away and said when to come back; asking it about the
      // transfer before then only meets the same answer, so the caller waits until `notBefore`.
      const notBefore = r.retryAfterMs === undefined ? undefined : new Date(this.clock.now().getTime() + r.retryAfterMs).toISOString();
      // D36: BIND never acted on a call it turned away (429), refused the credentials of (401, after one renewal),
      // or that was never sent (status 0: no token). Such a payout cannot reach the bank from this request, so a
      // pause may hold it and the owner may cancel it.
      if (TURNED_AWAY.has(r.status)) return { kind: 'turned_away', message: r.message, ...(notBefore ? { notBefore } : {}) };
      // 5xx say nothing about the transfer: ask by reference. So do 408 (a gateway that timed out waiting for BIND,
      // which may have booked it), 409 (a conflict, e.g. the same origin_id still being worked) and 425: none of
      // them is BIND refusing the transfer, and calling one a rejection fails a payout whose money may have moved,
      // inviting the agent to pay again (D19).
      if (r.status >= 500 || UNANSWERED_4XX.has(r.status)) return { kind: 'unknown', message: r.message, ...(notBefore ? { notBefore } : {}) };
      return { kind: 'rejected', reason: rejectReasonOf(r.message), message: r.message };
    }
    const status = stateOf(r.body?.status);
    if (status === 'unknown') return { kind: 'unknown', message: `BIND answered ${r.body?.status}` };
    return { kind: 'accepted', transfer: this.toRailTransfer(req.reference, r.body, status) };
  }

  /** "Consultar Transferencia" by our `origin_id`; 404 is "BIND never got it" (safe to submit again with it). */
  async getTransfer(reference: string): Promise<RailTransfer | null> {
    const r = await this.retryUnanswered(() => this.client.call<BindTransfer>('GET', BIND_PATHS.transferById(reference)));
    if (r.kind === 'error' && r.status === 404) return null;
    const t = this.must(r, 'Consultar transferencia');
    if (!t) return null;
    // BIND documents 200 and 401 here. A 200 that names no transfer of ours (an error envelope, `{code, message}`,
    // from BIND or a gateway in front of it) is no answer, never "BIND has it": read as in progress, a payout BIND
    // never booked was marked submitted and never sent again (D19). Asked again in a minute, as a transfer BIND
    // cannot say about is, rather than at every pass of the follow-up.
    if (!isTransferOf(t, reference)) {
      const other = typeof t === 'object' && t !== null ? (t as Partial<BindTransfer>).details?.origin_id : undefined;
      const what = other ? `a transfer of origin_id ${String(other).slice(0, 20)}` : 'no transfer';
      throw new TransferNotShown(`BIND Consultar transferencia: HTTP 200 with ${what} for ${reference}`, new Date(this.clock.now().getTime() + UNRESOLVED_RECHECK_MS).toISOString());
    }
    const status = stateOf(t.status);
    if (status === 'IN_PROGRESS') return { ...this.toRailTransfer(reference, t, status), settlesAfter: this.askAgainAt(t) };
    if (status !== 'unknown') return this.toRailTransfer(reference, t, status);
    const gaveUp = t.status === 'UNKNOWN_FOREVER';
    if (gaveUp) this.log.error({ reference }, 'BIND gave up resolving this transfer (UNKNOWN_FOREVER): it needs a claim with its Coelsa id');
    else if (t.status !== 'UNKNOWN') this.log.warn({ reference, status: t.status }, 'BIND answered a transfer state we do not know; it stays in progress');
    const settlesAfter = new Date(this.clock.now().getTime() + (gaveUp ? GAVE_UP_RECHECK_MS : UNRESOLVED_RECHECK_MS)).toISOString();
    return { ...this.toRailTransfer(reference, t, 'IN_PROGRESS'), settlesAfter };
  }

  /**
   * When to ask again about a transfer on its way: after a quarter of its age (by BIND's `start_date`), bounded. A
   * `start_date` missing, unreadable or ahead of our clock (a Buenos Aires time without its offset reads three hours
   * ahead) says nothing of its age: then in IN_FLIGHT_RECHECK_UNDATED_MS, never at the shortest wait all day.
   */
  private askAgainAt(t: BindTransfer): string {
    const now = this.clock.now().getTime();
    const started = Date.parse(t.start_date ?? '');
    const wait =
      Number.isFinite(started) && started <= now
        ? Math.min(IN_FLIGHT_RECHECK_MAX_MS, Math.max(IN_FLIGHT_RECHECK_MIN_MS, (now - started) / 4))
        : IN_FLIGHT_RECHECK_UNDATED_MS;
    return new Date(now + wait).toISOString();
  }

  /**
   * BIND has no batch query: one "Consultar Transferencia" per reference, a few at a time. One that fails (a 500
   * for that transfer, a body that cannot be read) does not cost the others their answer (D29); a round in which
   * none answered ends the asking, since BIND is then down or asking us to wait.
   */
  async getTransfers(references: readonly string[]): Promise<Map<string, RailTransfer>> {
    const out = new Map<string, RailTransfer>();
    const unanswered: string[] = [];
    // A transfer BIND answered for without showing it waits a time of its own; BIND itself is up.
    const waits = new Map<string, string>();
    let firstError: unknown;
    for (let i = 0; i < references.length; i += STATUS_PARALLELISM) {
      const batch = references.slice(i, i + STATUS_PARALLELISM);
      const results = await Promise.allSettled(batch.map((ref) => this.getTransfer(ref)));
      results.forEach((r, j) => {
        if (r.status === 'fulfilled') {
          if (r.value) out.set(batch[j]!, r.value);
        } else {
          unanswered.push(batch[j]!);
          if (r.reason instanceof TransferNotShown) waits.set(batch[j]!, r.reason.notBefore);
          else firstError ??= r.reason;
        }
      });
      if (results.every((r) => r.status === 'rejected' && !(r.reason instanceof TransferNotShown))) {
        unanswered.push(...references.slice(i + STATUS_PARALLELISM));
        break;
      }
    }
    if (unanswered.length === 0) return out;
    if (waits.size === 0 && unanswered.length === references.length) throw firstError;
    throw new RailPartialAnswer(out, unanswered, firstError, waits);
  }

  takeIncoming(limit: number): Promise<IncomingNotice[]> {
    return this.inbox.take(limit);
  }

  ackIncoming(acks: readonly IncomingAck[]): Promise<void> {
    return this.inbox.ack(acks);
  }

  oldestIncoming(): Promise<string | null> {
    return this.inbox.oldestPending();
  }

  /**
   * D43's reconciliation: lists BIND's incoming transfers of the last days (per day, not per account) and puts
   * in the inbox every one it lacks, as if its webhook had come. Returns how many it added.
   */
  async reconcile(): Promise<number> {
    const now = this.clock.now();
    const from = baDateTime(new Date(now.getTime() - RECONCILE_DAYS * 24 * 3600 * 1000), true);
    const to = baDateTime(new Date(now.getTime() + 60_000), false);
    let added = 0;
    let previous = new Set<string>();
    for (let page = 1; page <= 1000; page++) {
      const r = await this.retryUnanswered(() =>
        this.client.call<unknown>('GET', BIND_PATHS.transfers, {
          headers: { type: RECEIVED, fromDate: from, toDate: to, start: String(page), length: String(LISTING_PAGE) },
        }),
      );
      const items = listOf(this.must(r, 'Consultar transferencias'));
      // BIND documents `length` but no maximum: a page shorter than asked may be its own cap, not the last one. The
      // end is an empty page, or one that repeats the last (a listing that ignores `start`).
      const ids = new Set(items.map((t) => t.id));
      if (items.length === 0 || [...ids].every((id) => previous.has(id))) break;
      previous = ids;
      const credits = items.flatMap((t) => {
        const c = creditOf(t, now.toISOString());
        return c ? [c] : [];
      });
      for (const t of items) {
        const why = unreadableCredit(t, now.toISOString());
        if (why) await this.inbox.insertUnreadable(t, why, 'reconciliation');
      }
      const known = await this.inbox.known(credits.map((c) => c.id));
      for (const c of credits) if (!known.has(c.id) && (await this.inbox.insert(c, 'reconciliation'))) added++;
    }
    if (added > 0) this.log.warn({ added }, 'BIND reconciliation found incoming transfers whose webhook never came');
    await this.inbox.prune();
    return added;
  }

  private toRailTransfer(reference: string, t: BindTransfer, status: RailTransferStatus): RailTransfer {
    const coelsaId = (t.transaction_ids ?? []).find((id) => id && id !== t.id) ?? undefined;
    const account = t.details?.origin_credit?.cvu || (t.counterparty?.account_routing?.scheme === 'LABEL' ? null : t.counterparty?.account_routing?.address) || null;
    return {
      reference,
      providerTransferId: t.id,
      ...(coelsaId ? { coelsaId } : {}),
      status,
      failureReason: status === 'FAILED' ? 'destination_rejected' : null,
      counterpartyName: t.counterparty?.name || null,
      counterpartyLegalId: t.counterparty?.id || null,
      counterpartyAccount: account,
    };
  }

  /** The answer's body, or an error saying why there is none (a `RailBusyError` when BIND said when to ask again). */
  private must<T>(r: BindResult<T>, what: string): T {
    return must(r, what, this.clock.now());
  }

  /** Repeats a call once when no answer came: only for calls BIND makes safe to repeat (reads, keyed creations). */
  private async retryUnanswered<T>(fn: () => Promise<BindResult<T>>): Promise<BindResult<T>> {
    const first = await fn();
    return first.kind === 'unanswered' ? fn() : first;
  }
}

/** BIND answered 200 about one transfer without showing it: no answer for that transfer alone, asked again later. */
class TransferNotShown extends RailBusyError {}

/** A body that is a transfer, and ours if it names its `origin_id`. */
function isTransferOf(t: unknown, reference: string): t is BindTransfer {
  if (typeof t !== 'object' || t === null) return false;
  const b = t as Partial<BindTransfer>;
  const origin = b.details?.origin_id;
  return typeof b.id === 'string' && b.id !== '' && typeof b.status === 'string' && (origin === undefined || origin === null || origin === reference);
}

/** BIND's transfer states → the port's (D43). `unknown`: not a state we may act on. */
function stateOf(status: string | undefined): RailTransferStatus | 'unknown' {
  switch (status) {
    case 'COMPLETED':
      return 'COMPLETED';
    case 'FAILED':
      return 'FAILED';
    case 'PENDING':
    case 'IN_PROGRESS':
      return 'IN_PROGRESS';
    default:
      // UNKNOWN ("se intenta resolver durante el día"), UNKNOWN_FOREVER, or anything new: never a failure.
      return 'unknown';
  }
}

/**
 * BIND's 422 business errors → our reasons. BIND documents them by message ("Cuenta con saldo insuficiente",
 * "CVU origen inválido", "El formato de un campo es inválido", …), not by code.
 */
export function rejectReasonOf(message: string): RailRejectReason {
  const m = message.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
  if (m.includes('saldo insuficiente') || m.includes('fondos insuficientes')) return 'insufficient_funds';
  if (/(alias|cbu|cvu|cuenta) (ingresado |de )?(destino )?(no existe|inexistente)|destino (inexistente|invalid)|no es valido/.test(m)) return 'destination_not_found';
  if (/destino|contraparte|cuenta (cerrada|inhabilitada|bloqueada)/.test(m)) return 'destination_rejected';
  return 'invalid_request';
}

function must<T>(r: BindResult<T>, what: string, now: Date): T {
  if (r.kind === 'ok') return r.body;
  const message = `BIND ${what}: ${r.kind === 'error' ? `HTTP ${r.status} ${r.message}` : r.message}`;
  if (r.kind === 'error' && r.retryAfterMs !== undefined) throw new RailBusyError(message, new Date(now.getTime() + r.retryAfterMs).toISOString());
  throw new Error(message);
}

/** BIND documents the listing's items, not its envelope: an array, or one under a usual key. */
function listOf(body: unknown): BindTransfer[] {
  if (Array.isArray(body)) return body as BindTransfer[];
  const o = (body ?? {}) as Record<string, unknown>;
  for (const k of ['data', 'transfers', 'items', 'results']) if (Array.isArray(o[k])) return o[k] as BindTransfer[];
  return [];
}

/** An item of the listing that BIND marks as received: a credit to the CVU it names. */
const isReceived = (t: BindTransfer): boolean => t.details?.type === RECEIVED || t.status === RECEIVED;

/** An item of the listing as a leg of `cvu`: a credit when it arrived there, else a debit from it. */
function legOf(t: BindTransfer, cvu: string, at: string): TransferLeg | null {
  if (isReceived(t)) return creditOf(t, at)?.leg ?? null;
  // Another of our CVUs paying this one: money that arrived only once BIND completed that transfer (one still in
  // progress, or failed and given back to the payer, never reached this account).
  if (t.details?.origin_credit?.cvu === cvu) return stateOf(t.status) === 'COMPLETED' ? (creditOf(t, at)?.leg ?? null) : null;
  const amount = centavosOf(t.charge?.value?.amount);
  if (amount === null) return null;
  const state = stateOf(t.status);
  return {
    id: t.id,
    from: cvu,
    to: t.details?.origin_credit?.cvu || t.counterparty?.account_routing?.address || '',
    fromLegalId: t.details?.origin_debit?.cuit ?? '',
    toLegalId: t.counterparty?.id ?? '',
    fromName: '',
    toName: t.counterparty?.name ?? '',
    amountCentavos: amount,
    currency: 'ARS',
    status: state === 'unknown' ? 'IN_PROGRESS' : state,
    creationTime: t.start_date || t.end_date || at,
    direction: 'debit',
    isReversal: false,
  };
}

/** "2023-12-20 00:00" in Buenos Aires wall time (UTC-3 all year), the listing's date format; `dayStart` → 00:00. */
function baDateTime(d: Date, dayStart: boolean): string {
  const ba = new Date(d.getTime() - 3 * 3600 * 1000);
  const date = ba.toISOString().slice(0, 10);
  return dayStart ? `${date} 00:00` : `${date} ${ba.toISOString().slice(11, 16)}`;
}
