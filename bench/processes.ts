/**
 * The processes of a bench run besides the load generator: the service (compiled build or tsx), the bare
 * Fastify no-op server and the webhook receiver, each a child on a loopback port, plus the temp data directory
 * or PostgreSQL database they use. Every child is killed when the run ends, fails or is interrupted.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = path.join(ROOT, 'bench');

const children = new Set<ChildProcess>();
const cleanups: (() => void)[] = [];

/** Kills every child still running and runs the cleanups (drop the database, remove temp dirs). Idempotent. */
export function cleanupAll(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  while (cleanups.length) {
    try {
      cleanups.pop()!();
    } catch (e) {
      console.error(`cleanup: ${(e as Error).message}`);
    }
  }
}

export function onCleanup(f: () => void): void {
  cleanups.push(f);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Child {
  proc: ChildProcess;
  pid: number;
  url: string;
  port: number;
  logFile: string;
  stop(): Promise<void>;
}

function track(proc: ChildProcess, logFile: string, what: string): void {
  children.add(proc);
  const log = createWriteStream(logFile);
  proc.stdout?.pipe(log);
  proc.stderr?.pipe(log);
  proc.on('exit', (code, signal) => {
    if (children.has(proc)) {
      children.delete(proc);
      // An exit nobody asked for is a failed run, not a slow one.
      console.error(`\n${what} (pid ${proc.pid}) exited unexpectedly: code ${code} signal ${signal}; log ${logFile}`);
      console.error(tail(logFile));
      cleanupAll();
      process.exit(1);
    }
  });
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function stopper(proc: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      children.delete(proc);
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      const force = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      proc.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      proc.kill('SIGTERM');
    });
}

/** Polls `url` until it answers 200 (the child is listening and ready), or fails after `timeoutMs`. */
export async function waitReady(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A small helper child of ours (TypeScript through tsx's loader), readiness reported over IPC. */
async function startHelper(script: string, what: string, workDir: string): Promise<Child> {
  const port = await freePort();
  const logFile = path.join(workDir, `${what}.log`);
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(BENCH, script), String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  track(proc, logFile, what);
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} did not start within 30 s`)), 30_000);
    proc.once('message', () => {
      clearTimeout(t);
      resolve();
    });
  });
  return { proc, pid: proc.pid!, port, url: `http://127.0.0.1:${port}`, logFile, stop: stopper(proc) };
}

export const startNoop = (workDir: string) => startHelper('noop-server.ts', 'noop-server', workDir);
export const startReceiver = (workDir: string) => startHelper('receiver.ts', 'webhook-receiver', workDir);

export type Runner = 'build' | 'tsx';

/** `npm run build` once, so the service runs as in production (`node dist/main.js`). */
export function buildService(): void {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/** The node flags `npm start` gives the service (package.json), so the bench measures the service as it is run. */
export function startNodeFlags(): string[] {
  const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const m = /\bnode ((?:--\S+ )*)dist\/main\.js/.exec(start);
  if (!m) throw new Error(`package.json: the start script no longer runs "node [flags] dist/main.js": ${start}`);
  return m[1]!.split(' ').filter(Boolean);
}

export const BENCH_JWT_SECRET = 'bench-jwt-secret-0123456789-abcdefghijklmnop';

/**
 * The service as its own process. The settings an operator would give, except: the rate limit so high it is
 * not what is measured, warnings only in the log, webhooks to loopback allowed (the receiver), a fresh store.
 */
export async function startService(opts: {
  runner: Runner;
  workDir: string;
  databaseUrl: string;
  env: Record<string, string>;
  /** `node --cpu-prof` into this directory: the profile is written when the service exits on SIGTERM. */
  cpuProfDir?: string | null;
}): Promise<Child> {
  const port = await freePort();
  const logFile = path.join(opts.workDir, 'service.log');
  const prof = opts.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.cpuProfDir)}`] : [];
  const entry = [...prof, ...startNodeFlags(), ...(opts.runner === 'build' ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'])];
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(opts.workDir, 'data'),
    DATABASE_URL: opts.databaseUrl,
    JWT_SECRET: BENCH_JWT_SECRET,
    SECRETS_KEY: 'bench-secrets-key-0123456789-abcdefghijklmn',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    ...opts.env,
  };
  const proc = spawn(process.execPath, entry, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  track(proc, logFile, 'service');
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/healthz`);
  return { proc, pid: proc.pid!, port, url, logFile, stop: stopper(proc) };
}

/** Counts the service log's lines at warn (40) or above: a run that logged errors is not a clean figure. */
export function serviceLogProblems(logFile: string): { warn: number; error: number; samples: string[] } {
  let warn = 0;
  let error = 0;
  const samples: string[] = [];
  for (const line of tail(logFile, 1_000_000).split('\n')) {
    if (!line.trim()) continue;
    let level = 50;
    try {
      level = (JSON.parse(line) as { level?: number }).level ?? 50;
    } catch {
      // not pino JSON: an uncaught error on stderr
    }
    if (level >= 50) error++;
    else if (level >= 40) warn++;
    if (level >= 40 && samples.length < 3) samples.push(line.slice(0, 300));
  }
  return { warn, error, samples };
}

export function makeWorkDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'wallet-bench-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A fresh PostgreSQL database for this run (createdb), dropped at the end (dropdb --force). */
export function createPostgresDatabase(host: string, user: string, port: string): { name: string; url: string } {
  const name = `wallet_bench_${randomBytes(4).toString('hex')}`;
  const common = ['-h', host, '-p', port, '-U', user];
  execFileSync('createdb', [...common, name], { stdio: 'inherit' });
  onCleanup(() => execFileSync('dropdb', [...common, '--force', '--if-exists', name], { stdio: 'inherit' }));
  // A directory is PostgreSQL's Unix socket (node-postgres reads a percent-encoded host that starts with `/` so).
  const where = host.startsWith('/') ? encodeURIComponent(host) : host;
  return { name, url: `postgres://${encodeURIComponent(user)}@${where}:${port}/${name}` };
}
