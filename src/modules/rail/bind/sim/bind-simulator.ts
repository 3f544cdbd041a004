import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAlias, isCbu, isCvu } from '../../../../shared/ar-identifiers.js';
import {
  BIND_BANK_ID,
  BIND_PATHS,
  CVU_RECEIVED_EVENT,
  RECEIVED,
  centavosOf,
  decimal,
  parseBindJson,
  pesosOf,
  stringifyBindJson,
  type BindTransfer,
} from '../bind-wire.js';
import { accountView, coelsaId, header, newCvu, outsideCuit, parseBaTime, readBody, send, type SimAccount } from './sim-support.js';

/**
 * An in-memory BIND for development and tests: the subset of BIND's PSP API the adapter uses, on the same paths,
 * with the same bodies, states and error codes (docs/bank-rail.md), plus control endpoints under `/__sim` that
 * are not BIND's: book an incoming credit, inject faults, look at what was booked. Each CVU keeps its own
 * balance, which a transfer debits (the adapter names it in `origin_debit.cvu`).
 */
export interface BindSimulatorOptions {
  port?: number;
  host?: string;
  /** Time from accepting a transfer to settling it. */
  settleMs?: number;
  /** Where BIND's "Aviso de Transferencia Entrante en CVU" is posted; unset = nobody is told. */
  webhookUrl?: string;
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of the access tokens it issues (BIND: 3600 s). */
  tokenTtlSeconds?: number;
  /** How long a "timeout" fault keeps a request unanswered (the client gives up first). */
  hangMs?: number;
  /** The most items a listing page holds whatever `length` asks (BIND documents none; its default is 50). */
  listingMaxLength?: number;
}

export interface BindSimulator {
  /** Base URL of the API (BIND_API_URL). */
  url: string;
  /** The token endpoint (BIND_TOKEN_URL). */
  tokenUrl: string;
  setWebhookUrl(url: string | undefined): void;
  close(): Promise<void>;
}

export type FaultOp = 'token' | 'transfer' | 'status' | 'lookup' | 'settle';
export type FaultMode = 'timeout' | '500' | '429' | 'unknown' | 'unknown_forever' | 'fail';


interface SimTransfer {
  transfer: BindTransfer;
  amount: number;
  fromCvu: string;
  /** A CVU of this simulator that the transfer credits at settlement. */
  toCvu: string | null;
  createdAt: number;
}

const TOKEN_PATH = '/oauth2/v2.0/token';
const CONCEPTOS = new Set(['ALQ', 'CUO', 'EXP', 'FAC', 'PRE', 'SEG', 'HON', 'HAB', 'VAR']);

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** BIND's gateway turning calls away: nothing was done, ask again after Retry-After (30 s unless the fault says). */
const tooMany = (retryAfterS = 30) => new HttpError(429, 'Too Many Requests', { 'retry-after': String(retryAfterS) });

export async function startBindSimulator(opts: BindSimulatorOptions = {}): Promise<BindSimulator> {
  const sim = new Simulator(opts);
  const server = createServer((req, res) => void sim.handle(req, res));
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  return {
    url,
    tokenUrl: `${url}${TOKEN_PATH}`,
    setWebhookUrl: (u) => (sim.webhookUrl = u),
    close: () => sim.close(server),
  };
}

class Simulator {
  webhookUrl: string | undefined;
  private readonly tokens = new Map<string, number>();
  private readonly accounts = new Map<string, SimAccount>();
  private readonly byClientId = new Map<string, SimAccount>();
  private readonly byAlias = new Map<string, SimAccount>();
  private readonly transfers = new Map<string, SimTransfer>();
  private readonly received: BindTransfer[] = [];
  /** Armed faults; `only` limits one to the calls about that reference (a status query for one transfer, say). */
  private readonly faults = new Map<FaultOp, { mode: FaultMode; count: number; retryAfter?: number; only?: string }>();
  /** How many calls of each kind it was asked (`GET /__sim/calls`). */
  private readonly calls = new Map<FaultOp, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pending = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly opts: BindSimulatorOptions) {
    this.webhookUrl = opts.webhookUrl;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://sim');
      const body = req.method === 'POST' ? await readBody(req) : '';
      const answer = await this.route(req, url, body);
      if (answer === HANG) return this.hang(res);
      send(res, 200, answer);
    } catch (e) {
      if (e instanceof HttpError) send(res, e.status, { message: e.message }, e.headers);
      else send(res, 500, { message: 'Error interno' });
    }
  }

  private async route(req: IncomingMessage, url: URL, body: string): Promise<unknown> {
    const p = url.pathname;
    if (p.startsWith('/__sim/')) return this.control(req.method ?? 'GET', p, body);
    if (req.method === 'POST' && p === TOKEN_PATH) return this.token(body);
    this.authenticate(req);
    if (req.method === 'POST' && p === BIND_PATHS.createCvu) return this.createCvu(parseBindJson(body));
    if (req.method === 'POST' && p === BIND_PATHS.assignAlias) return this.assignAlias(parseBindJson(body));
    if (req.method === 'GET' && p === BIND_PATHS.lookup) return this.lookup(url.searchParams);
    if (req.method === 'GET' && p === BIND_PATHS.balance) return this.balance(header(req, 'cvu'));
    if (req.method === 'POST' && p === BIND_PATHS.transfer) return this.transfer(body);
    if (req.method === 'GET' && p === BIND_PATHS.transfers) return this.list(req);
    const byId = BIND_PATHS.transferById('');
    if (req.method === 'GET' && p.startsWith(byId)) return this.status(decodeURIComponent(p.slice(byId.length)));
    throw new HttpError(404, 'Recurso inexistente');
  }

  // ---- BIND's API ----

  private token(body: string): unknown {
    const form = new URLSearchParams(body);
    const fault = this.fault('token');
    if (fault === 'timeout') return HANG;
    if (fault) throw new HttpError(500, 'Error interno');
    if (form.get('grant_type') !== 'client_credentials') throw new HttpError(400, 'unsupported_grant_type');
    if (form.get('client_id') !== (this.opts.clientId ?? 'sim-client') || form.get('client_secret') !== (this.opts.clientSecret ?? 'sim-secret')) {
      throw new HttpError(401, 'invalid_client');
    }
    const ttl = this.opts.tokenTtlSeconds ?? 3600;
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, Date.now() + ttl * 1000);
    return { token_type: 'Bearer', expires_in: ttl, access_token: token };
  }

  private authenticate(req: IncomingMessage): void {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const until = m ? this.tokens.get(m[1]!) : undefined;
    if (!until || until <= Date.now()) throw new HttpError(401, 'Token de autenticación inválido');
  }

  private createCvu(b: { client_id?: unknown; cuit?: unknown; name?: unknown }): unknown {
    const clientId = String(b.client_id ?? '');
    const cuit = String(b.cuit ?? '');
    if (!clientId || !/^\d{11}$/.test(cuit) || typeof b.name !== 'string' || !b.name) throw new HttpError(400, 'Un campo requerido no fue enviado');
    // "client_id: único por CVU": the same one again answers the CVU it already has (docs/bank-rail.md).
    const existing = this.byClientId.get(clientId);
    if (existing) return { cvu: existing.cvu, label: existing.alias, reactivated: false };
    const account: SimAccount = { cvu: newCvu(), clientId, cuit, name: b.name, alias: null, balance: 0 };
    this.accounts.set(account.cvu, account);
    this.byClientId.set(clientId, account);
    return { cvu: account.cvu, label: null, reactivated: false };
  }

  private assignAlias(b: { cuit?: unknown; cvu?: unknown; label?: unknown }): unknown {
    const account = this.accounts.get(String(b.cvu ?? ''));
    const label = String(b.label ?? '');
    if (!account) throw new HttpError(422, 'CVU inexistente');
    if (!isAlias(label)) throw new HttpError(422, 'El alias ingresado tiene un formato inválido');
    const holder = this.byAlias.get(label.toLowerCase());
    if (holder && holder !== account) throw new HttpError(422, 'El alias ingresado ya está en uso');
    if (account.alias) this.byAlias.delete(account.alias.toLowerCase());
    account.alias = label;
    this.byAlias.set(label.toLowerCase(), account);
    return { cvu: account.cvu, label, reactivated: false };
  }

  private lookup(q: URLSearchParams): unknown {
    const fault = this.fault('lookup');
    if (fault === 'timeout') return HANG;
    if (fault) throw new HttpError(500, 'Error interno');
    const alias = q.get('alias');
    const number = q.get('cbuOrCvu');
    if (alias && alias !== 'null') {
      if (!isAlias(alias)) throw new HttpError(422, 'El alias ingresado tiene un formato inválido');
      const a = this.byAlias.get(alias.toLowerCase());
      if (!a) throw new HttpError(422, 'El alias ingresado no existe');
      return accountView(a);
    }
    if (!number || number === 'null') throw new HttpError(400, 'Un campo requerido no fue enviado');
    const own = this.accounts.get(number);
    if (own) return accountView(own);
    if (!isCbu(number) && !isCvu(number)) throw new HttpError(404, 'El CBU/CVU no es válido');
    return { cuentaId: null, cbucvu: number, alias: null, cuitCuil: outsideCuit(number), nombre: `Titular cuenta ${number.slice(-4)}`, bancoNombre: 'Otro banco', activo: true, moneda: 'ARS' };
  }

  private balance(cvu: string | undefined): unknown {
    const total = cvu ? this.accounts.get(cvu)?.balance : [...this.accounts.values()].reduce((s, a) => s + a.balance, 0);
    if (total === undefined) throw new HttpError(404, 'CVU inexistente');
    return { moneda: 'ARS', saldo: decimal(pesosOf(total)), fecha: new Date().toISOString() };
  }

  private transfer(text: string): unknown {
    const b = parseBindJson<{
      origin_id?: unknown;
      origin_debit?: { cvu?: unknown } | null;
      to?: { cbu?: unknown; alias?: unknown } | null;
      value?: { currency?: unknown; amount?: unknown } | null;
      description?: unknown;
      concepto?: unknown;
    }>(text);
    const originId = typeof b.origin_id === 'string' ? b.origin_id : '';
    if (!originId) throw new HttpError(422, 'origin_id es requerido');
    if (originId.length > 15) throw new HttpError(422, 'origin_id tiene más de 15 caracteres');
    const fault = this.fault('transfer');
    if (fault === '500') throw new HttpError(500, 'Error interno');
    if (fault === '429') throw tooMany(this.faults.get('transfer')?.retryAfter);
    // "Si se crea una transferencia con un origin_id ya existente, no se crea una nueva y se devuelve la original."
    const existing = this.transfers.get(originId);
    if (existing) return fault === 'timeout' ? HANG : existing.transfer;
    const from = this.accounts.get(String(b.origin_debit?.cvu ?? ''));
    if (!from) throw new HttpError(422, 'CVU origen inválido');
    if (b.value?.currency !== 'ARS') throw new HttpError(422, 'El formato de un campo es inválido: value.currency');
    const amount = centavosOf(b.value?.amount);
    if (amount === null || amount <= 0) throw new HttpError(422, 'El formato de un campo es inválido: value.amount');
    const concepto = b.concepto ?? 'VAR';
    if (typeof concepto !== 'string' || !CONCEPTOS.has(concepto)) throw new HttpError(422, 'Concepto inválido');
    const description = typeof b.description === 'string' ? b.description : 'Varios';
    if (description.length > 100) throw new HttpError(422, 'El formato de un campo es inválido: description');
    const dest = this.destination(b.to ?? {});
    if (from.balance < amount) throw new HttpError(422, 'Cuenta con saldo insuficiente');
    from.balance -= amount;
    const now = new Date().toISOString();
    const transfer: BindTransfer = {
      id: `1-${from.cuit}-${String(this.transfers.size + 1).padStart(15, '0')}-1`,
      type: 'TRANSFER',
      from: { bank_id: BIND_BANK_ID, account_id: '20-1-000001-1-1' },
      counterparty: {
        id: dest.cuit,
        name: dest.name,
        id_type: 'CUIT_CUIL',
        bank_routing: { scheme: 'UNAVAILABLE', address: '' },
        account_routing: { scheme: dest.scheme, address: dest.address },
      },
      details: { type: 'TRANSFER', origin_id: originId, origin_debit: { cvu: from.cvu, cuit: from.cuit }, origin_credit: { cvu: dest.account, cuit: dest.cuit } },
      transaction_ids: [],
      status: 'IN_PROGRESS',
      start_date: now,
      end_date: null,
      charge: { summary: concepto, value: { currency: 'ARS', amount: decimal(pesosOf(amount)) } },
    };
    transfer.transaction_ids = [transfer.id, coelsaId()];
    this.transfers.set(originId, { transfer, amount, fromCvu: from.cvu, toCvu: this.accounts.has(dest.account) ? dest.account : null, createdAt: Date.now() });
    this.later(this.opts.settleMs ?? 1000, () => this.settle(originId));
    if (fault === 'timeout') return HANG;
    if (fault === 'unknown') return { ...transfer, status: 'UNKNOWN' };
    return transfer;
  }

  private destination(to: { cbu?: unknown; alias?: unknown }): { account: string; cuit: string; name: string; scheme: string; address: string } {
    if (typeof to.alias === 'string' && to.alias) {
      const a = this.byAlias.get(to.alias.toLowerCase());
      if (!a) throw new HttpError(422, 'El alias ingresado no existe');
      return { account: a.cvu, cuit: a.cuit, name: a.name, scheme: 'LABEL', address: to.alias };
    }
    const number = typeof to.cbu === 'string' ? to.cbu : '';
    const own = this.accounts.get(number);
    if (own) return { account: own.cvu, cuit: own.cuit, name: own.name, scheme: 'CVU', address: number };
    if (!isCbu(number) && !isCvu(number)) throw new HttpError(422, 'Cuenta destino inválida');
    return { account: number, cuit: outsideCuit(number), name: `Titular cuenta ${number.slice(-4)}`, scheme: isCvu(number) ? 'CVU' : 'CBU', address: number };
  }

  private settle(originId: string): void {
    const t = this.transfers.get(originId);
    if (!t || t.transfer.status !== 'IN_PROGRESS') return;
    t.transfer.end_date = new Date().toISOString();
    if (this.fault('settle') === 'fail') {
      t.transfer.status = 'FAILED';
      // The debit comes back as a reversal ("Transferencia saliente": "se devuelve el saldo en concepto de reversa").
      this.accounts.get(t.fromCvu)!.balance += t.amount;
      return;
    }
    t.transfer.status = 'COMPLETED';
    if (t.toCvu) {
      const from = this.accounts.get(t.fromCvu)!;
      // One transfer, one Coelsa id: the payee's credit carries the id the payer's transfer has.
      const coelsa = t.transfer.transaction_ids.find((id) => id !== t.transfer.id);
      this.credit(t.toCvu, t.amount, { cbu: from.cvu, name: from.name, cuit: from.cuit }, 1, coelsa);
    }
  }

  private status(id: string): unknown {
    const fault = this.fault('status', id);
    if (fault === 'timeout') return HANG;
    if (fault === '500') throw new HttpError(500, 'Error interno');
    if (fault === '429') throw tooMany(this.faults.get('status')?.retryAfter);
    const t = this.transfers.get(id) ?? [...this.transfers.values()].find((x) => x.transfer.transaction_ids.includes(id));
    if (!t) {
      const incoming = this.received.find((r) => r.id === id);
      if (incoming) return incoming;
      throw new HttpError(404, 'Transferencia inexistente');
    }
    if (fault === 'unknown_forever') return { ...t.transfer, status: 'UNKNOWN_FOREVER' };
    return fault === 'unknown' ? { ...t.transfer, status: 'UNKNOWN' } : t.transfer;
  }

  private list(req: IncomingMessage): unknown {
    const start = Math.max(1, Number(header(req, 'start') ?? 1) || 1);
    const length = Math.min(this.opts.listingMaxLength ?? 500, Math.max(1, Number(header(req, 'length') ?? 50) || 50));
    const type = header(req, 'type');
    const cvu = header(req, 'cvu');
    const from = parseBaTime(header(req, 'fromDate'));
    const to = parseBaTime(header(req, 'toDate'));
    const id = header(req, 'transferenceId');
    const outgoing = [...this.transfers.values()].map((t) => ({ at: t.createdAt, t: t.transfer }));
    const incoming = this.received.map((t) => ({ at: Date.parse(t.start_date ?? ''), t }));
    const all = (type === RECEIVED ? incoming : type === 'TRANSFER' ? outgoing : [...incoming, ...outgoing])
      .filter(({ t }) => !cvu || t.details.origin_credit?.cvu === cvu || t.details.origin_debit?.cvu === cvu)
      .filter(({ at }) => (from === null || at >= from) && (to === null || at <= to + 59_999))
      .filter(({ t }) => !id || t.id === id)
      .sort((a, b) => b.at - a.at);
    return all.slice((start - 1) * length, start * length).map(({ t }) => t);
  }

  // ---- outside BIND's API: control ----

  private control(method: string, p: string, body: string): unknown {
    if (method === 'POST' && p === '/__sim/incoming') {
      const b = parseBindJson<{ cvu?: string; amount?: unknown; from_cbu?: string; from_name?: string; from_cuit?: string; repeat?: number }>(body || '{}');
      const amount = centavosOf(b.amount);
      if (!b.cvu || !this.accounts.has(b.cvu)) throw new HttpError(404, 'CVU inexistente');
      if (amount === null || amount <= 0) throw new HttpError(400, 'amount: pesos with at most 2 decimals');
      const from = { cbu: b.from_cbu ?? '0110599540000042007856', name: b.from_name ?? 'Distribuidora Los Alerces S.A.', cuit: b.from_cuit ?? '30715924605' };
      const t = this.credit(b.cvu, amount, from, b.repeat ?? 1);
      return { id: t.id, cvu: b.cvu, amount: decimal(pesosOf(amount)), balance: decimal(pesosOf(this.accounts.get(b.cvu)!.balance)) };
    }
    if (method === 'POST' && p === '/__sim/faults') {
      const b = JSON.parse(body || '{}') as { op?: FaultOp; mode?: FaultMode; count?: number; retry_after?: number; only?: string };
      if (!b.op || !b.mode) throw new HttpError(400, 'op and mode are required');
      this.faults.set(b.op, {
        mode: b.mode,
        count: b.count ?? 1,
        ...(b.retry_after === undefined ? {} : { retryAfter: b.retry_after }),
        ...(b.only === undefined ? {} : { only: b.only }),
      });
      return { op: b.op, mode: b.mode, count: b.count ?? 1 };
    }
    if (method === 'POST' && p === '/__sim/tokens/expire') {
      for (const token of this.tokens.keys()) this.tokens.set(token, 0);
      return { expired: this.tokens.size };
    }
    if (method === 'GET' && p === '/__sim/calls') return Object.fromEntries(this.calls);
    if (method === 'GET' && p === '/__sim/transfers') {
      return { transfers: [...this.transfers.values()].map((t) => ({ origin_id: t.transfer.details.origin_id, amount: decimal(pesosOf(t.amount)), status: t.transfer.status })) };
    }
    const account = /^\/__sim\/accounts\/(\d{22})$/.exec(p);
    if (method === 'GET' && account) {
      const a = this.accounts.get(account[1]!);
      if (!a) throw new HttpError(404, 'CVU inexistente');
      return { cvu: a.cvu, balance: decimal(pesosOf(a.balance)) };
    }
    throw new HttpError(404, 'Recurso inexistente');
  }

  /** Books a completed credit to one of its CVUs and posts BIND's notice `repeat` times (0: the notice is lost). */
  private credit(cvu: string, amount: number, from: { cbu: string; name: string; cuit: string }, repeat: number, id = coelsaId()): BindTransfer {
    const account = this.accounts.get(cvu)!;
    account.balance += amount;
    const now = new Date().toISOString();
    const t: BindTransfer = {
      id,
      type: 'TRANSFER',
      from: { bank_id: BIND_BANK_ID, account_id: '20-1-000001-1-1' },
      counterparty: {
        id: from.cuit,
        name: from.name,
        id_type: 'CUIT_CUIL',
        bank_routing: { scheme: 'UNAVAILABLE', address: '' },
        account_routing: { scheme: isCvu(from.cbu) ? 'CVU' : 'CBU', address: from.cbu },
      },
      details: { type: RECEIVED, origin_id: null, origin_debit: { cvu: from.cbu, cuit: from.cuit }, origin_credit: { cvu, cuit: account.cuit } },
      transaction_ids: [id],
      status: RECEIVED,
      start_date: now,
      end_date: now,
      charge: { summary: 'VAR', value: { currency: 'ARS', amount: decimal(pesosOf(amount)) } },
    };
    this.received.push(t);
    for (let i = 0; i < repeat; i++) this.notify({ ...t, status: 'COMPLETED' });
    return t;
  }

  /** BIND retries a webhook that is not answered 200 ("esquema de reintentos"); here a few times, quickly. */
  private notify(data: BindTransfer): void {
    const url = this.webhookUrl;
    if (!url) return;
    const messageId = `CASHOUT-${data.id}`;
    const run = (async () => {
      for (let redeliveries = 0; redeliveries < 4 && !this.closed; redeliveries++) {
        const body = stringifyBindJson({ id: messageId, object: 'ApiTransaction', created: new Date().toISOString(), data, type: CVU_RECEIVED_EVENT, redeliveries });
        try {
          const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(5000) });
          await res.arrayBuffer();
          if (res.status === 200) return;
        } catch {
          // not delivered: try again
        }
        await new Promise((r) => setTimeout(r, 200 * (redeliveries + 1)));
      }
    })();
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  private fault(op: FaultOp, about?: string): FaultMode | null {
    this.calls.set(op, (this.calls.get(op) ?? 0) + 1);
    const f = this.faults.get(op);
    if (!f || f.count <= 0 || (f.only !== undefined && f.only !== about)) return null;
    f.count -= 1;
    return f.mode;
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  private hang(res: ServerResponse): void {
    this.later(this.opts.hangMs ?? 60_000, () => res.destroy());
  }

  async close(server: Server): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.allSettled([...this.pending]);
  }
}

const HANG = Symbol('hang');
