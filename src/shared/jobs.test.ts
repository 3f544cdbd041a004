import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startTestApp } from '../../test/helpers.js';
import { PeriodicJob } from './jobs.js';

describe('background jobs and shutdown', () => {
  it('a job never overlaps itself and stop() waits for the run in progress', async () => {
    let running = 0;
    let maxRunning = 0;
    let finished = 0;
    const job = new PeriodicJob('slow', 5, async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 50));
      running--;
      finished++;
      return { more: false };
    }, pino({ level: 'silent' }));
    const a = job.runOnce();
    const b = job.runOnce();
    job.start();
    await new Promise((r) => setTimeout(r, 20));
    await job.stop();
    expect(running).toBe(0);
    expect(maxRunning).toBe(1);
    await Promise.all([a, b]);
    const after = finished;
    await new Promise((r) => setTimeout(r, 30));
    expect(finished).toBe(after); // stopped for good
  });

  it('closing the app stops its jobs and closes the store', async () => {
    const t = await startTestApp({ deps: { startJobs: true } });
    await t.app.close();
    await expect(t.app.ctx.store.db.selectFrom('users').select('id').execute()).rejects.toThrow();
    await t.store.drop();
  });
});
