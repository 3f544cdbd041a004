import { describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { startTestApp } from '../../test/helpers.js';
import { FIRST_RUN_MAX_MS, PeriodicJob } from './jobs.js';

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

  it('an hourly job first runs within a minute of the start, then hourly (a node restarted often still prunes)', async () => {
    vi.useFakeTimers();
    try {
      let runs = 0;
      const job = new PeriodicJob('hourly', 60 * 60_000, async () => {
        runs++;
        return { more: false };
      }, pino({ level: 'silent' }));
      job.start();
      await vi.advanceTimersByTimeAsync(FIRST_RUN_MAX_MS + 1);
      expect(runs).toBe(1);
      await vi.advanceTimersByTimeAsync(59 * 60_000);
      expect(runs).toBe(1);
      await vi.advanceTimersByTimeAsync(60_000 + 1);
      expect(runs).toBe(2);
      await job.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('wakeIn runs a job when its work falls due rather than at the next interval, also when asked mid-run', async () => {
    const runs: number[] = [];
    const started = Date.now();
    let release: () => void = () => {};
    const job = new PeriodicJob('due', 60_000, async () => {
      runs.push(Date.now() - started);
      if (runs.length === 1) await new Promise<void>((r) => (release = r));
      return { more: false };
    }, pino({ level: 'silent' }));
    job.start();
    job.wakeIn(30);
    await new Promise((r) => setTimeout(r, 200));
    expect(runs).toHaveLength(1); // woken at ~30 ms, not after the 60 s interval
    expect(runs[0]).toBeGreaterThanOrEqual(25);
    job.wakeIn(20); // asked while the first run is still going: runs after it, not a minute later
    release();
    await new Promise((r) => setTimeout(r, 200));
    expect(runs).toHaveLength(2);
    job.wakeIn(100_000); // later than the planned interval: changes nothing
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toHaveLength(2);
    await job.stop();
  });

  it('every time asked for by wakeIn gets a run, not only the earliest (a later one is not lost behind it)', async () => {
    const runs: number[] = [];
    const started = Date.now();
    const job = new PeriodicJob('due-many', 60_000, async () => {
      runs.push(Date.now() - started);
      await new Promise((r) => setTimeout(r, 10));
      return { more: false };
    }, pino({ level: 'silent' }));
    job.start();
    // Payouts submitted one after another each ask for their own settlement time, before any run starts.
    job.wakeIn(30);
    job.wakeIn(80);
    job.wakeIn(130);
    await new Promise((r) => setTimeout(r, 400));
    await job.stop();
    expect(runs).toHaveLength(3);
    expect(runs[1]).toBeGreaterThanOrEqual(75);
    expect(runs[2]).toBeGreaterThanOrEqual(125);
  });

  it('past its bound on remembered times, wakeIn still keeps the earliest (later ones are left to the interval)', async () => {
    const runs: number[] = [];
    const started = Date.now();
    const job = new PeriodicJob('due-bounded', 60_000, async () => {
      runs.push(Date.now() - started);
      return { more: false };
    }, pino({ level: 'silent' }));
    job.start();
    // More distinct far-off times than the job keeps (1,000), then the soonest of all.
    for (let i = 0; i < 1_500; i++) job.wakeIn(10_000 + i * 20);
    job.wakeIn(30);
    await new Promise((r) => setTimeout(r, 200));
    await job.stop();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toBeGreaterThanOrEqual(25);
  });

  it('closing the app stops its jobs and closes the store', async () => {
    const t = await startTestApp({ deps: { startJobs: true } });
    await t.app.close();
    await expect(t.app.ctx.store.db.selectFrom('users').select('id').execute()).rejects.toThrow();
    await t.store.drop();
  });

  it('a pass that fails is told to onFailure with its job (for /metrics), and the next run goes on', async () => {
    const failed: string[] = [];
    let runs = 0;
    const job = new PeriodicJob(
      'flaky',
      60_000,
      async () => {
        if (runs++ === 0) throw new Error('the store could not serve it');
        return { more: false };
      },
      pino({ level: 'silent' }),
      (name) => failed.push(name),
    );
    await job.runOnce();
    await job.runOnce();
    expect(failed).toEqual(['flaky']);
    expect(runs).toBe(2);
  });
});
