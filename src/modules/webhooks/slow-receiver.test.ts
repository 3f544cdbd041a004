import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, startTestApp, type TestApp } from '../../../test/helpers.js';
import { startReceiver } from '../../../test/receiver.js';
import { MAX_BATCHES_BEHIND, PARALLEL_SENDS, PASS_WAIT_MS } from './delivery.worker.js';
import { rawReceiver, setHook, twoEvents } from '../../../test/webhook-kit.js';

/** Long enough that a receiver which never answers holds its sends for the whole test. */
const TIMEOUT_MS = 20_000;

async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (cond()) return true;
    await sleep(20);
  }
  return cond();
}

/**
 * One owner's receiver that never answers must not hold up everyone else's webhooks. Each of its sends waits the
 * full timeout; a pass that waited for all of them before claiming again made every other owner's deliveries wait
 * that long too (measured: one delivery waited 30 s behind 100 silent ones).
 */
describe('a silent receiver', () => {
  let t: TestApp;
  let silent: Awaited<ReturnType<typeof rawReceiver>>;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
    // Accepts every request and never answers (a firewall that drops packets looks the same to the sender).
    silent = await rawReceiver(() => undefined);
  });
  afterAll(async () => {
    await silent.close(); // ends the held sends, so the app's shutdown does not wait out their timeout
    await t.close();
  });

  it("holds up neither later passes nor other owners' deliveries", async () => {
    const a = await createOnboardedUser(t.app);
    await setHook(t, a, silent.url);
    // More silent deliveries than sends in flight, so the first pass's slots are all held.
    for (let i = 0; i < PARALLEL_SENDS; i++) await twoEvents(t, a);
    const b = await createOnboardedUser(t.app);
    const fast = await startReceiver(() => 200);
    try {
      await setHook(t, b, fast.url);
      const job = t.app.jobs.webhookDelivery!;
      job.start();
      job.wake();
      expect(await waitFor(() => silent.requests() >= PARALLEL_SENDS, 5_000)).toBe(true);

      // Written while the silent sends are held: delivered within a pass's wait, not after the timeout.
      const started = Date.now();
      await twoEvents(t, b);
      expect(await waitFor(() => fast.received.length >= 2, TIMEOUT_MS / 2)).toBe(true);
      expect(Date.now() - started).toBeLessThan(PASS_WAIT_MS + 3_000);
      // The silent receiver got no more than the sends in flight: the rest of its deliveries wait their turn.
      expect(silent.requests()).toBeLessThanOrEqual(PARALLEL_SENDS);
    } finally {
      await fast.close();
    }
  });
});

/**
 * A silent owner's backlog can come in one claim with other owners' deliveries: its deliveries pile up while
 * passes skip it, and are claimed together once its batch ends (or after a restart). Worked in claim order, its
 * first `PARALLEL_SENDS` took every slot for the whole timeout and the others in the claim waited behind them.
 */
describe('a silent owner in the same claim as others', () => {
  let t: TestApp;
  let silent: Awaited<ReturnType<typeof rawReceiver>>;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
    silent = await rawReceiver(() => undefined);
  });
  afterAll(async () => {
    await silent.close();
    await t.close();
  });

  it("does not take every send: the other owners' deliveries in that claim go out at once", async () => {
    const a = await createOnboardedUser(t.app);
    await setHook(t, a, silent.url);
    // More silent deliveries than sends in flight, all due before the other owner's: one claim takes them all.
    for (let i = 0; i < PARALLEL_SENDS / 2 + 1; i++) await twoEvents(t, a);
    const b = await createOnboardedUser(t.app);
    const fast = await startReceiver(() => 200);
    try {
      await setHook(t, b, fast.url);
      await twoEvents(t, b);
      const started = Date.now();
      await t.app.jobs.webhookDelivery!.runOnce();
      expect(await waitFor(() => fast.received.length >= 2, TIMEOUT_MS / 2)).toBe(true);
      expect(Date.now() - started).toBeLessThan(PASS_WAIT_MS + 3_000);
      expect(silent.requests()).toBeLessThanOrEqual(PARALLEL_SENDS);
    } finally {
      await fast.close();
    }
  });
});

/**
 * Sends in flight are bounded (`PARALLEL_SENDS`), and so must be the connections they open. A 2xx is delivered at
 * its status line, but a body that trickles and never ends kept its connection open until the timeout after the
 * send had freed its slot: one owner's receiver could have a connection open per delivery, thousands per node.
 */
describe('a receiver that answers 2xx and never ends the body', () => {
  let t: TestApp;
  let rx: Awaited<ReturnType<typeof rawReceiver>>;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
    rx = await rawReceiver((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('accepted, and then some');
    });
  });
  afterAll(async () => {
    await rx.close();
    await t.close();
  });

  it('has its deliveries delivered, with no more connections open than sends in flight', async () => {
    const u = await createOnboardedUser(t.app);
    await setHook(t, u, rx.url);
    for (let i = 0; i < PARALLEL_SENDS / 2 + 1; i++) await twoEvents(t, u);
    await t.app.jobs.webhookDelivery!.runOnce();
    const undelivered = async () =>
      (await t.app.inject({ method: 'GET', url: '/v1/webhook/deliveries', headers: bearer(u.ownerToken) }))
        .json()
        .deliveries.filter((d: { status: string }) => d.status !== 'delivered');
    // Well within the timeout: each send ends soon after its status line, whatever the body does.
    const until = Date.now() + 5_000;
    while ((await undelivered()).length > 0 && Date.now() < until) await sleep(50);
    expect(await undelivered()).toEqual([]);
    expect(rx.requests()).toBe(PARALLEL_SENDS + 2);
    expect(rx.connections().mostOpen).toBeLessThanOrEqual(PARALLEL_SENDS);
    expect(await waitFor(() => rx.connections().open === 0, 2_000)).toBe(true);
  });
});

/**
 * Each batch left working in the background holds up to `PARALLEL_SENDS` sockets until its receivers answer or
 * time out, so a node keeps at most `MAX_BATCHES_BEHIND` of them. One silent owner after another fills them; the
 * next owner's deliveries then wait for one of them to end instead of opening a fifth batch.
 */
describe('batches left in the background', () => {
  let t: TestApp;
  const silent: Awaited<ReturnType<typeof rawReceiver>>[] = [];
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });
  afterAll(async () => {
    for (const s of silent) await s.close();
    await t.close();
  });

  it(`are at most ${MAX_BATCHES_BEHIND} per node; the next waits for one to end`, async () => {
    const job = t.app.jobs.webhookDelivery!;
    job.start();
    // Passes run one after another, and a pass returns only once its batch is done or left behind: an owner whose
    // deliveries reach its receiver was claimed in a pass of its own, after the previous owner's batch went behind.
    for (let i = 0; i < MAX_BATCHES_BEHIND; i++) {
      const s = await rawReceiver(() => undefined);
      silent.push(s);
      const u = await createOnboardedUser(t.app);
      await setHook(t, u, s.url);
      await twoEvents(t, u);
      job.wake();
      expect(await waitFor(() => s.requests() >= 2, 5_000)).toBe(true);
    }
    const late = await createOnboardedUser(t.app);
    const fast = await startReceiver(() => 200);
    try {
      await setHook(t, late, fast.url);
      await twoEvents(t, late);
      job.wake();
      // Long enough for the last batch to go behind and for a fifth pass to claim and deliver, were it allowed.
      await sleep(PASS_WAIT_MS + 2_000);
      expect(fast.received).toHaveLength(0);

      // One silent receiver goes away: its sends fail at once, its batch ends, and the waiting deliveries go out.
      await silent[0]!.close();
      expect(await waitFor(() => fast.received.length >= 2, 5_000)).toBe(true);
    } finally {
      await fast.close();
    }
  });
});

/**
 * Shutting down with a batch to a silent receiver in flight: the sends already made finish (their timeout), and no
 * further round starts. Working the batch to its end took a timeout per round, longer than a deploy waits.
 */
describe('shutting down behind a silent receiver', () => {
  it('waits for the sends in flight only, not for the rest of their batch', async () => {
    const timeoutMs = 4_000;
    const t = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: String(timeoutMs) } });
    const silent = await rawReceiver(() => undefined);
    let closed = false;
    try {
      const a = await createOnboardedUser(t.app);
      await setHook(t, a, silent.url);
      // Two rounds of sends: more deliveries than slots.
      for (let i = 0; i < PARALLEL_SENDS; i++) await twoEvents(t, a);
      const job = t.app.jobs.webhookDelivery!;
      job.start();
      job.wake();
      expect(await waitFor(() => silent.requests() >= PARALLEL_SENDS, 5_000)).toBe(true);
      const started = Date.now();
      await t.close();
      closed = true;
      expect(Date.now() - started).toBeLessThan(timeoutMs + 2_000);
      expect(silent.requests()).toBe(PARALLEL_SENDS);
    } finally {
      await silent.close();
      if (!closed) await t.close();
    }
  });
});
