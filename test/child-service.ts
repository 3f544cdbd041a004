import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { TEST_JWT_SECRET, type TestStore } from './helpers.js';

/** The service in a child process of its own, for tests that kill it with SIGKILL and start it again. */
const ROOT = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The settings every child service starts with on the test's store (jobs every 200 ms, no rate limit to speak of), plus `extra`. */
export function childEnv(store: TestStore, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: store.config.dataDir,
    DATABASE_URL: store.config.databaseUrl,
    JWT_SECRET: TEST_JWT_SECRET,
    SECRETS_KEY: 'test-secrets-key-0123456789-abcdefghijkl',
    RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: 'silent',
    JOBS_INTERVAL_MS: '200',
    ...extra,
  };
}

/** The service as an operator runs it: its own process, killed with SIGKILL when the test says so. */
export class Service {
  proc: ChildProcess | null = null;
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}
  readonly base = () => `http://127.0.0.1:${this.port}`;

  async start(): Promise<void> {
    this.proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...this.env, PORT: String(this.port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    this.proc.stderr!.on('data', (c) => (stderr += String(c)));
    await until('the service to listen', async () => (await fetch(`${this.base()}/healthz`)).ok, 60_000).catch((e) => {
      throw new Error(`${String(e)}\n${stderr}`);
    });
  }

  kill9(): void {
    this.proc?.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    if (!this.proc || this.proc.exitCode !== null) return;
    const exited = new Promise((r) => this.proc!.once('exit', r));
    this.proc.kill('SIGTERM');
    await exited;
  }

  async call(method: string, url: string, token?: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${this.base()}${url}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  }
}

/** Reads the store the service writes, from this process: the SQLite file (WAL allows it) or the PostgreSQL schema. */
export function reader(store: TestStore) {
  if (store.config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: store.config.databaseUrl, max: 2 });
    return { all: async <T,>(q: string, p: unknown[] = []) => (await pool.query(q, p)).rows as T[], close: () => pool.end() };
  }
  const db = new SQLite(path.join(store.config.dataDir, 'wallet.sqlite'), { readonly: true });
  return {
    all: async <T,>(q: string, p: unknown[] = []) => db.prepare(q.replace(/\$\d+/g, '?')).all(...p) as T[],
    close: async () => db.close(),
  };
}
