import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type Deps } from '../src/app.js';
import { parseConfig, type Config } from '../src/config.js';
import { FakeClock } from '../src/shared/clock.js';

/**
 * PostgreSQL: how many sessions wait on a lock that the session running this holds. Only its own waiters, so that
 * nothing else waiting in the database (a background job, another app) passes for them; pg_locks is read live,
 * where pg_stat_activity is a snapshot held for the rest of a transaction.
 */
export const WAITING_ON_ME_SQL = 'select count(*)::int as n from pg_locks where not granted and pg_backend_pid() = any(pg_blocking_pids(pid))';

export const TEST_JWT_SECRET = 'test-secret-0123456789-abcdefghijklmnop';

/**
 * One isolated store per test app: a temp SQLite file, or (TEST_DATABASE_URL set) a fresh PostgreSQL schema in
 * the CI database. `env` overrides settings exactly as an operator would.
 */
export interface TestStore {
  config: Pick<Config, 'dataDir' | 'databaseUrl'>;
  drop(): Promise<void>;
}

export async function createTestStore(): Promise<TestStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wallet-test-'));
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    return { config: { dataDir, databaseUrl: '' }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    config: { dataDir, databaseUrl: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function testConfig(store: TestStore, env: Record<string, string> = {}): Config {
  const config = parseConfig({
    JWT_SECRET: TEST_JWT_SECRET,
    SECRETS_KEY: 'test-secrets-key-0123456789-abcdefghijkl',
    RATE_LIMIT_PER_MINUTE: '100000',
    OWNER_RATE_LIMIT_PER_MINUTE: '100000',
    SAFETY_ACTIONS_PER_MINUTE: '100000',
    // Tests run many apps on one loaded machine: waits get generous bounds here, and the tests of the bounds set
    // their own (D42).
    DATABASE_LOCK_TIMEOUT_MS: '15000',
    DATABASE_STATEMENT_TIMEOUT_MS: '30000',
    DATABASE_CHECKOUT_TIMEOUT_MS: '15000',
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // Injected requests say `Host: localhost:80` and listening tests take a random port: the localhost names on any
    // port. The default (the listen port only) has its own test (D41).
    ALLOWED_HOSTS: 'localhost,127.0.0.1,[::1]',
    ...env,
  });
  return { ...config, ...store.config };
}

export interface TestApp {
  app: FastifyInstance;
  clock: FakeClock;
  store: TestStore;
  config: Config;
  close(): Promise<void>;
}

export async function startTestApp(opts: { env?: Record<string, string>; deps?: Deps; store?: TestStore } = {}) {
  const store = opts.store ?? (await createTestStore());
  const config = testConfig(store, opts.env);
  const clock = new FakeClock(new Date());
  const app = await buildApp(config, { clock, startJobs: false, ...opts.deps });
  await app.ready();
  return {
    app,
    clock,
    store,
    config,
    close: async () => {
      await app.close();
      if (!opts.store) await store.drop();
    },
  } satisfies TestApp;
}

/**
 * Several app instances on one store, sharing one clock: the multi-node setup of D29 (on PostgreSQL each node has
 * its own pool; on SQLite its own connection to the same file).
 */
export async function startNodes(n: number, opts: { env?: Record<string, string>; deps?: Deps } = {}) {
  const store = await createTestStore();
  const config = testConfig(store, opts.env);
  const clock = new FakeClock(new Date());
  const nodes: FastifyInstance[] = [];
  for (let i = 0; i < n; i++) {
    const app = await buildApp(config, { clock, startJobs: false, ...opts.deps });
    await app.ready();
    nodes.push(app);
  }
  return {
    nodes,
    clock,
    store,
    close: async () => {
      for (const app of nodes) await app.close();
      await store.drop();
    },
  };
}

let seq = 0;
export const uniqueEmail = () => `user${Date.now()}${++seq}${randomBytes(3).toString('hex')}@example.com`;
export const PASSWORD = 'correct horse battery';

export interface TestUser {
  id: string;
  email: string;
  apiKey: string;
  apiKeyId: string;
  ownerToken: string;
  agentToken: string;
}

export async function createUser(app: FastifyInstance, name = 'Test User'): Promise<TestUser> {
  const email = uniqueEmail();
  const res = await app.inject({ method: 'POST', url: '/v1/users', payload: { email, password: PASSWORD, name } });
  if (res.statusCode !== 201) throw new Error(`create user: ${res.statusCode} ${res.body}`);
  const user = res.json();
  const login = await app.inject({ method: 'POST', url: '/v1/login', payload: { email, password: PASSWORD } });
  const agent = await app.inject({
    method: 'POST',
    url: '/v1/auth/token',
    payload: { api_key: user.default_api_key.key },
  });
  return {
    id: user.id,
    email,
    apiKey: user.default_api_key.key,
    apiKeyId: user.default_api_key.id,
    ownerToken: login.json().token,
    agentToken: agent.json().token,
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function expectError(res: LightMyRequestResponse, status: number, code: string): void {
  const body = res.json();
  if (res.statusCode !== status || body.error !== code || typeof body.message !== 'string') {
    throw new Error(`expected ${status} ${code}, got ${res.statusCode} ${res.body}`);
  }
}

/** A valid CUIT/CUIL with a random DNI part (never the sandbox's KYC-pending 99999999). */
export function randomCuit(prefix = '20'): string {
  const dni = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const first10 = `${prefix}${dni}`;
  const w = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = [...first10].reduce((s, d, i) => s + Number(d) * w[i]!, 0);
  const r = 11 - (sum % 11);
  return `${first10}${r === 11 ? 0 : r === 10 ? 9 : r}`;
}

export interface OnboardedUser extends TestUser {
  cvu: string;
  alias: string;
  legalId: string;
}

/** A user with a wallet, optionally funded through the sandbox deposit helper. */
export async function createOnboardedUser(app: FastifyInstance, opts: { name?: string; fundArs?: number } = {}): Promise<OnboardedUser> {
  const u = await createUser(app, opts.name);
  const legalId = randomCuit();
  const res = await app.inject({
    method: 'POST',
    url: '/v1/onboarding',
    headers: bearer(u.ownerToken),
    payload: { legal_id: legalId, legal_name: opts.name ?? 'Test User' },
  });
  if (res.statusCode !== 200) throw new Error(`onboarding: ${res.statusCode} ${res.body}`);
  if (opts.fundArs) {
    const dep = await app.inject({
      method: 'POST',
      url: '/v1/sandbox/deposits',
      headers: bearer(u.ownerToken),
      payload: { amount_ars: opts.fundArs },
    });
    if (dep.statusCode !== 201) throw new Error(`deposit: ${dep.statusCode} ${dep.body}`);
  }
  return { ...u, cvu: res.json().cvu, alias: res.json().alias, legalId };
}

export const EXTERNAL_CBU = '2850590940090418135201';

export function withdraw(
  app: FastifyInstance,
  token: string,
  body: Record<string, unknown>,
  key: string | null = `k-${randomBytes(6).toString('hex')}`,
) {
  return app.inject({
    method: 'POST',
    url: '/v1/withdraws',
    headers: { ...bearer(token), ...(key === null ? {} : { 'idempotency-key': key }) },
    payload: body,
  });
}

/** Lets the sandbox rail confirm what is due and the follow-up job carry attempts forward. */
export async function settle(t: TestApp, ms = 60_000): Promise<void> {
  t.clock.advance(ms);
  await t.app.jobs.railSettlement!.runOnce();
  await t.app.jobs.payoutFollowUp!.runOnce();
}

export async function setThresholds(app: FastifyInstance, ownerToken: string, body: Record<string, unknown>) {
  const res = await app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(ownerToken), payload: body });
  if (res.statusCode !== 204) throw new Error(`thresholds: ${res.statusCode} ${res.body}`);
}

export async function eventTypes(app: FastifyInstance, userId: string, subjectId?: string): Promise<string[]> {
  const rows = await app.ctx.store.db.selectFrom('events').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  return rows.filter((r) => !subjectId || JSON.parse(r.data).id === subjectId).map((r) => r.type);
}
