import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  logs: () => string;
  stop(): Promise<void>;
}

/**
 * The real service as `npm start` runs it (the compiled dist/main.js serving dist/web), on a free port with a
 * throw-away SQLite store. `env` tunes it for a test (short approval window, fast sandbox bank).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const main = path.join(ROOT, 'dist', 'main.js');
  if (!existsSync(main) || !existsSync(path.join(ROOT, 'dist', 'web', 'index.html'))) {
    throw new Error('the build is missing: run `npm run build` (npm run test:e2e does)');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wallet-e2e-'));
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SANDBOX_CONFIRM_DELAY_MS: '300',
      JOBS_INTERVAL_MS: '200',
      WEBHOOK_POLL_INTERVAL_MS: '500',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // The suite drives many screens quickly from one address; the limit itself is tested in the unit suite.
      RATE_LIMIT_PER_MINUTE: '5000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never outlive the test run, whatever happens to it.
  const reap = () => child.exitCode === null && child.kill('SIGKILL');
  process.once('exit', reap);
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      reap();
      throw new Error(`server did not become ready:\n${out}`);
    }
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    dataDir,
    logs: () => out,
    stop: async () => {
      process.removeListener('exit', reap);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
