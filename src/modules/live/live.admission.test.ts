import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { STREAMS_PER_USER } from './live.routes.js';

/**
 * D42: the door's limit counts requests being worked on. An open live stream (D33's dashboard, one per tab, open for
 * up to 30 minutes) is admitted at the door like any request, but once open it is not work in flight: a few open
 * dashboards, or someone who signs up and opens many, must not make the node refuse everyone's API calls. Streams
 * are bounded on their own instead: a few per user (tabs) and, on a node, as many as the door's limit; a dashboard
 * refused one keeps working by polling.
 */
describe('open live streams and the in-flight limit', () => {
  let t: TestApp;
  let base: string;
  let owner: OnboardedUser;
  const LIMIT = 4;

  beforeAll(async () => {
    t = await startTestApp({ env: { MAX_REQUESTS_IN_FLIGHT: String(LIMIT), LIVE_HEARTBEAT_MS: '200' } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await createOnboardedUser(t.app, { fundArs: 1_000 });
  });
  afterAll(async () => {
    t.app.server.closeAllConnections();
    await t.close();
  });

  it('streams open up to the limit do not turn other requests away', async () => {
    const ctl = new AbortController();
    try {
      expect(await openStreams(base, owner.ownerToken, LIMIT, ctl)).toEqual(Array(LIMIT).fill(200));
      const other = await createOnboardedUser(t.app);
      const balance = await fetch(`${base}/v1/balance`, { headers: bearer(other.agentToken) });
      expect(balance.status).toBe(200);
    } finally {
      ctl.abort();
    }
  });

  it('streams past the node’s limit are refused (503, Retry-After); closing them frees their places', async () => {
    await new Promise((r) => setTimeout(r, 200));
    const ctl = new AbortController();
    expect(await openStreams(base, owner.ownerToken, LIMIT + 1, ctl)).toEqual([...Array(LIMIT).fill(200), 503]);
    ctl.abort();
    await new Promise((r) => setTimeout(r, 200));
    const again = new AbortController();
    expect(await openStreams(base, owner.ownerToken, 1, again)).toEqual([200]);
    again.abort();
  });
});

describe('open live streams per user', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { LIVE_HEARTBEAT_MS: '200' } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    t.app.server.closeAllConnections();
    await t.close();
  });

  it('a user gets a few at a time (429 past them, with Retry-After); another user is unaffected', async () => {
    const a = await createOnboardedUser(t.app);
    const b = await createOnboardedUser(t.app);
    const ctl = new AbortController();
    try {
      expect(await openStreams(base, a.ownerToken, STREAMS_PER_USER + 1, ctl)).toEqual([...Array(STREAMS_PER_USER).fill(200), 429]);
      expect(await openStreams(base, b.ownerToken, 1, ctl)).toEqual([200]);
    } finally {
      ctl.abort();
    }
  });
});

/** Opens `n` streams one after the other; answers their statuses (an open one has sent its first state). */
async function openStreams(base: string, token: string, n: number, ctl: AbortController): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${base}/v1/events/stream`, { headers: bearer(token), signal: ctl.signal });
    statuses.push(res.status);
    if (res.status === 200) await res.body!.getReader().read();
    else {
      expect(res.headers.get('retry-after'), `status ${res.status}`).toBe('30');
      expect((await res.clone().json()).error).toBe(res.status === 503 ? 'SERVICE_UNAVAILABLE' : 'RATE_LIMIT_EXCEEDED');
      await res.body?.cancel();
    }
  }
  return statuses;
}
