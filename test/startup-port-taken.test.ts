import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A newcomer's second `npm start` (or another program on port 3000) must say what to do, not only print Node's
 * EADDRINUSE stack: the service is started as an operator starts it, in a process of its own.
 */
const ROOT = path.resolve(import.meta.dirname, '..');

describe('starting on a port that is taken', () => {
  let holder: net.Server;
  let port: number;
  let dataDir: string;
  beforeAll(async () => {
    holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as net.AddressInfo).port;
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'port-taken-'));
  });
  afterAll(async () => {
    await new Promise((r) => holder.close(r));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 1 naming the address and the PORT setting', async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (c) => (stderr += String(c)));
    const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(`127.0.0.1:${port} is already in use`);
    expect(stderr).toMatch(/PORT=/);
  }, 60_000);
});
