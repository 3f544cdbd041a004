import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm start` runs its script in `sh -c`. A supervisor (systemd, Docker) signals that process: unless the shell
 * hands itself over to node (`exec`), SIGTERM stops the shell and leaves the service running on its port, never
 * shutting down gracefully. The script is run here as npm runs it, minus the build (the sources through tsx
 * instead of dist/), and the shell's pid gets the SIGTERM.
 */
const ROOT = path.resolve(import.meta.dirname, '..');

describe('npm start and SIGTERM', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'npm-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the signal sent to the start script reaches the service, which shuts down gracefully', { timeout: 60_000 }, async () => {
    const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start!;
    const run = /^npm run build --silent && (.*) dist\/main\.js$/.exec(start);
    expect(run, `the start script's shape changed: ${start}`).not.toBeNull();
    const proc = spawn('sh', ['-c', `${run![1]} --import tsx src/main.ts`], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      // Its own process group, so whatever the shell left behind can be stopped afterwards.
      detached: true,
    });
    let out = '';
    proc.stdout.on('data', (d) => (out += String(d)));
    proc.stderr.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    for (let i = 0; !out.includes('Server listening'); i++) {
      if (i > 400) throw new Error(`the service did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    proc.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'alive'>((r) => setTimeout(() => r('alive'), 15_000))]);
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      // nothing left in the group: the service exited as it should
    }
    expect(code).toBe(0);
    expect(out).toContain('shutting down');
  });
});
