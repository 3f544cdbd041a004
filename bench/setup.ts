/**
 * Setup over the service's public HTTP API, before anything is measured: users, onboarding, funding, raised
 * limits, agent tokens, a few payouts to read back and replay, webhook subscriptions. It runs with modest
 * concurrency (user creation is a scrypt hash each, ~0.2 s of CPU on purpose) and is never timed as load.
 */
import { BENCH_JWT_SECRET, ROOT } from './processes.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const EXTERNAL_CBU = '2850590940090418135201';
const PASSWORD = 'bench password 1234';

export interface Wallet {
  index: number;
  userId: string;
  owner: string; // "Bearer …" owner session
  agent: string; // "Bearer …" agent (API key) session
}

export interface Seed {
  agent: string;
  key: string;
  body: string;
  id: string;
}

export interface Reply {
  status: number;
  json: Record<string, unknown>;
}

export async function call(
  base: string,
  method: string,
  url: string,
  opts: { body?: unknown; auth?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.auth) headers.authorization = opts.auth;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    json = { raw: text };
  }
  return { status: res.status, json };
}

function expect(r: Reply, status: number, what: string): Reply {
  if (r.status !== status) throw new Error(`setup: ${what} answered ${r.status} (expected ${status}): ${JSON.stringify(r.json).slice(0, 300)}`);
  return r;
}

/** Runs `f(0..n-1)` with at most `concurrency` in flight, printing progress now and then. */
export async function pool<T>(n: number, concurrency: number, label: string, f: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  let done = 0;
  const started = Date.now();
  let lastPrint = started;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      for (let i = next++; i < n; i = next++) {
        out[i] = await f(i);
        done++;
        if (Date.now() - lastPrint > 10_000) {
          lastPrint = Date.now();
          process.stdout.write(`  ${label}: ${done}/${n} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
        }
      }
    }),
  );
  return out;
}

/** A valid CUIT (check digit per AFIP) whose DNI part is 10,000,000 + i: distinct per user, never 99999999. */
export function cuit(i: number): string {
  const first10 = `20${String(10_000_000 + i)}`;
  const w = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const r = 11 - ([...first10].reduce((s, d, j) => s + Number(d) * w[j]!, 0) % 11);
  return `${first10}${r === 11 ? 0 : r === 10 ? 9 : r}`;
}

type Minter = (userId: string) => Promise<string>;

/**
 * The owner session: `POST /v1/login` costs a second scrypt per user, which would double setup time. When the
 * service's token module is where it is today, the bench signs the same owner JWT with the JWT_SECRET it gave
 * the service; the first use is checked, and any refusal falls back to /v1/login for every user.
 */
async function ownerMinter(): Promise<Minter | null> {
  try {
    const mod = (await import(pathToFileURL(path.join(ROOT, 'src/modules/auth/tokens.ts')).href)) as {
      issueToken?: (s: { secret: string; expirySeconds: number }, c: { userId: string; kind: 'owner' }, now: Date) => Promise<{ token: string }>;
    };
    if (typeof mod.issueToken !== 'function') return null;
    const issue = mod.issueToken;
    return async (userId) => (await issue({ secret: BENCH_JWT_SECRET, expirySeconds: 24 * 3600 }, { userId, kind: 'owner' }, new Date())).token;
  } catch {
    return null;
  }
}

export interface WalletOptions {
  count: number;
  concurrency: number;
  fundArs: number;
  /** Raise the limits and disable approvals so payouts are allowed (201), and get an agent token. */
  forPayouts: boolean;
  tag: string;
}

export async function createWallets(base: string, o: WalletOptions): Promise<Wallet[]> {
  let mint = await ownerMinter();
  let minterChecked = false;
  const started = Date.now();
  const wallets = await pool(o.count, o.concurrency, 'wallets', async (index) => {
    const email = `bench-${o.tag}-${index}@example.com`;
    const user = expect(await call(base, 'POST', '/v1/users', { body: { email, password: PASSWORD, name: `Bench ${index}` } }), 201, 'POST /v1/users');
    const userId = user.json.id as string;
    let owner = '';
    if (mint) {
      owner = `Bearer ${await mint(userId)}`;
      if (!minterChecked) {
        const probe = await call(base, 'GET', '/v1/thresholds', { auth: owner });
        if (probe.status === 401 || probe.status === 403) {
          console.log('  (the service refused a bench-signed owner token: logging in instead)');
          mint = null;
        }
        minterChecked = true;
      }
    }
    if (!mint) {
      const login = expect(await call(base, 'POST', '/v1/login', { body: { email, password: PASSWORD } }), 200, 'POST /v1/login');
      owner = `Bearer ${login.json.token as string}`;
    }
    expect(
      await call(base, 'POST', '/v1/onboarding', { auth: owner, body: { legal_id: cuit(index), legal_name: `Bench ${index}` } }),
      200,
      'POST /v1/onboarding',
    );
    if (o.fundArs > 0) {
      expect(await call(base, 'POST', '/v1/sandbox/deposits', { auth: owner, body: { amount_ars: o.fundArs } }), 201, 'POST /v1/sandbox/deposits');
    }
    let agent = '';
    if (o.forPayouts) {
      const t = await call(base, 'PUT', '/v1/thresholds', {
        auth: owner,
        body: {
          per_tx_limit_ars: 1_000_000,
          daily_limit_ars: 1e10,
          monthly_limit_ars: 1e11,
          require_approval_above_ars: 0,
          whitelist_cbus: [],
        },
      });
      if (t.status !== 200 && t.status !== 204) expect(t, 204, 'PUT /v1/thresholds');
      const key = (user.json.default_api_key as { key: string }).key;
      const tok = expect(await call(base, 'POST', '/v1/auth/token', { body: { api_key: key } }), 200, 'POST /v1/auth/token');
      agent = `Bearer ${tok.json.token as string}`;
    }
    return { index, userId, owner, agent };
  });
  console.log(`  ${o.count} wallets ready in ${((Date.now() - started) / 1000).toFixed(0)} s (owner session ${mint ? 'bench-signed' : 'from /v1/login'})`);
  return wallets;
}

export const payoutBody = (amount = 1) => JSON.stringify({ amount_ars: amount, destination: EXTERNAL_CBU });

/** One allowed payout per wallet, kept (key, body, id) to be read back and replayed by the scenarios. */
export async function seedPayouts(base: string, wallets: Wallet[], concurrency: number): Promise<Seed[]> {
  const body = payoutBody(1);
  return pool(wallets.length, concurrency, 'seed payouts', async (i) => {
    const w = wallets[i]!;
    const key = `bench-seed-${i}`;
    const r = await call(base, 'POST', '/v1/withdraws', { auth: w.agent, headers: { 'idempotency-key': key }, body: JSON.parse(body) });
    expect(r, 201, 'seed POST /v1/withdraws');
    return { agent: w.agent, key, body, id: r.json.id as string };
  });
}

export async function subscribeWebhooks(base: string, wallets: Wallet[], url: string, concurrency: number): Promise<void> {
  await pool(wallets.length, concurrency, 'webhooks', async (i) => {
    const r = await call(base, 'PUT', '/v1/webhook', { auth: wallets[i]!.owner, body: { url, secret: 'bench-webhook-secret-0123456789' } });
    expect(r, 200, 'PUT /v1/webhook');
  });
}
