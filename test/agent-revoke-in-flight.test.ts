import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { bearer, createOnboardedUser, createUser, expectError, EXTERNAL_CBU, setThresholds, startTestApp, WAITING_ON_ME_SQL, withdraw, type TestApp } from './helpers.js';
import { agentsOf, connectApp, finishAuthorization, ORIGIN, register, startAuthorization } from './oauth-flow.js';
import type { ApprovalChannel } from '../src/modules/approvals/channels/channel.port.js';
import { balanceOf, gatedResolve, mcpCall, mcpOutcome, newKey, OTHER_CBU, payoutsOf } from './owner-control-kit.js';

/**
 * An agent revoked, narrowed or expired while its payout is on its way (D12, D31, D44): once the owner's change has
 * answered, that payout is decided on the key as the change left it.
 * Runs on SQLite and (TEST_DATABASE_URL) PostgreSQL.
 */

/**
 * A test app whose rail holds a payout request after its authentication and before its decision, an owner, and an
 * agent key. `inFlight` sends a request, makes the owner's change while it is held, then lets it go on.
 */
async function heldRequest(opts: { key?: (t: TestApp) => Record<string, unknown>; env?: Record<string, string> } = {}) {
  const g = gatedResolve();
  const t = await startTestApp({ deps: { rail: g.wrap }, ...(opts.env ? { env: opts.env } : {}) });
  const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
  const k = await newKey(t.app, u, opts.key?.(t));
  const inFlight = async <T>(send: () => Promise<T>, change: () => Promise<unknown>): Promise<T> => {
    g.hold();
    const pending = send();
    await vi.waitFor(() => expect(g.waiting).toBe(1));
    await change();
    g.release();
    return pending;
  };
  const close = async () => {
    g.release();
    await t.close();
  };
  return { t, u, k, inFlight, close };
}

const revoke = (t: TestApp, u: { ownerToken: string }, keyId: string) =>
  t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${keyId}`, headers: bearer(u.ownerToken) }).then((r) => expect(r.statusCode).toBe(204));
const patchKey = (t: TestApp, u: { ownerToken: string }, keyId: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${keyId}`, headers: bearer(u.ownerToken), payload }).then((r) => expect(r.statusCode).toBe(200));

describe('revoking an agent while its payout is on its way (D12, D31, D44)', () => {
  it('a key deleted while its payout request is in flight: once the delete has answered, that request pays nothing', async () => {
    const { t, u, k, inFlight, close } = await heldRequest();
    try {
      const res = await inFlight(() => withdraw(t.app, k.token, { amount_ars: 100, destination: EXTERNAL_CBU }, 'in-flight-1'), () => revoke(t, u, k.id));
      expect(res.statusCode, res.body).toBe(401);
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
      expect(await balanceOf(t.app, u)).toBe('10000.00');
    } finally {
      await close();
    }
  });

  it('the same on the older surface (POST /v1/transfers)', async () => {
    const { t, u, k, inFlight, close } = await heldRequest();
    try {
      const transfer = () =>
        t.app.inject({ method: 'POST', url: '/v1/transfers', headers: { ...bearer(k.token), 'idempotency-key': 'tr-in-flight' }, payload: { amount: 100, destination: EXTERNAL_CBU } });
      const res = await inFlight(transfer, () => revoke(t, u, k.id));
      expect(res.statusCode, res.body).toBe(401);
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the same through MCP with the raw key', async () => {
    const { t, u, k, inFlight, close } = await heldRequest();
    try {
      const call = () => mcpCall(t.app, k.key, 'request_payout', { amount_ars: 100, destination: EXTERNAL_CBU, idempotency_key: 'mcp-in-flight' });
      const out = mcpOutcome(await inFlight(call, () => revoke(t, u, k.id)));
      expect(out.status, JSON.stringify(out)).toBe('error');
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a payout in flight when the owner narrows the key allowlist: once the change has answered, it is not paid elsewhere', async () => {
    const { t, u, k, inFlight, close } = await heldRequest();
    try {
      const res = await inFlight(() => withdraw(t.app, k.token, { amount_ars: 100, destination: EXTERNAL_CBU }), () => patchKey(t, u, k.id, { allowlist: [OTHER_CBU] }));
      expectError(res, 422, 'PAYOUT_DENIED');
      expect(res.json().reasons).toEqual(['key_allowlist_violation']);
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('an agent that ends while its payout is on its way (D31, D44)', () => {
  it('a payout in flight when the owner takes payouts:write away from the key: once the change has answered, it pays nothing', async () => {
    const { t, u, k, inFlight, close } = await heldRequest({ key: () => ({ scopes: ['payouts:write', 'payouts:read'] }) });
    try {
      const res = await inFlight(() => withdraw(t.app, k.token, { amount_ars: 100, destination: EXTERNAL_CBU }), () => patchKey(t, u, k.id, { scopes: ['payouts:read'] }));
      expectError(res, 403, 'INSUFFICIENT_SCOPE');
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a key that expires while its payout request is in flight pays nothing', async () => {
    const { t, u, k, inFlight, close } = await heldRequest({ key: (t) => ({ expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString() }) });
    try {
      const res = await inFlight(() => withdraw(t.app, k.token, { amount_ars: 100, destination: EXTERNAL_CBU }), async () => t.clock.advance(61_000));
      expect(res.statusCode, res.body).toBe(401);
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an app connected by OAuth, revoked while its request_payout is in flight, pays nothing', async () => {
    const { t, u, inFlight, close } = await heldRequest({ env: { PUBLIC_URL: ORIGIN } });
    try {
      const connected = await connectApp(t.app, u, { scopes: ['payouts:write', 'payouts:read'] });
      const call = () => mcpCall(t.app, connected.access_token, 'request_payout', { amount_ars: 100, destination: EXTERNAL_CBU, idempotency_key: 'oauth-1' });
      const agentId = async () => (await agentsOf(t.app, u)).find((a) => a.kind === 'oauth')!.id;
      const out = mcpOutcome(await inFlight(call, async () => revoke(t, u, await agentId())));
      expect(out.status, JSON.stringify(out)).toBe('error');
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
    } finally {
      await close();
    }
  });
});

/**
 * A test app whose Telegram channel (a fake of the outside messenger) holds its availability check, which a limits
 * proposal asks after its authentication and before its transaction; and an owner. `inFlight` as above.
 */
async function heldProposal(opts: { env?: Record<string, string> } = {}) {
  let gate: Promise<void> | null = null;
  let open: () => void = () => {};
  let waiting = 0;
  const notified: string[] = [];
  const telegram: ApprovalChannel = {
    name: 'telegram',
    isAvailable: async () => {
      if (gate) {
        waiting++;
        await gate;
      }
      return true;
    },
    notifyPending: async (n) => void notified.push(n.id),
    notifyResolved: async () => undefined,
  };
  const release = () => {
    gate = null;
    open();
  };
  const t = await startTestApp({
    env: { APPROVAL_CHANNELS: 'dashboard,telegram', TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_WEBHOOK_SECRET: 'tg-secret-0123456789', ...opts.env },
    deps: { channels: { telegram } },
  });
  const u = await createOnboardedUser(t.app);
  const inFlight = async <T>(send: () => Promise<T>, change: () => Promise<unknown>): Promise<T> => {
    gate = new Promise<void>((r) => (open = r));
    waiting = 0;
    const pending = send();
    await vi.waitFor(() => expect(waiting).toBe(1));
    await change();
    release();
    return pending;
  };
  const approvals = async () =>
    (await t.app.inject({ method: 'GET', url: '/v1/approvals', headers: bearer(u.ownerToken) })).json().approvals as unknown[];
  const close = async () => {
    release();
    await t.close();
  };
  return { t, u, inFlight, approvals, notified, close };
}

const propose = (t: TestApp, credential: string) => mcpCall(t.app, credential, 'propose_threshold_change', { per_tx_limit_ars: 999_999 });

describe('an agent revoked while its limits proposal is on its way (D12, D13, D31, D44)', () => {
  it('a key deleted while its propose_threshold_change is in flight: once the delete has answered, the owner is asked nothing', async () => {
    const { t, u, inFlight, approvals, notified, close } = await heldProposal();
    try {
      const k = await newKey(t.app, u);
      const out = mcpOutcome(await inFlight(() => propose(t, k.key), () => revoke(t, u, k.id)));
      expect(out.body.error, JSON.stringify(out)).toBe('INVALID_TOKEN');
      expect(await approvals()).toEqual([]);
      expect(notified).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a proposal in flight when the owner takes thresholds:propose away from the key: once the change has answered, the owner is asked nothing', async () => {
    const { t, u, inFlight, approvals, notified, close } = await heldProposal();
    try {
      const k = await newKey(t.app, u, { scopes: ['thresholds:propose', 'thresholds:read'] });
      const out = mcpOutcome(await inFlight(() => propose(t, k.key), () => patchKey(t, u, k.id, { scopes: ['thresholds:read'] })));
      expect(out.body.error, JSON.stringify(out)).toBe('INSUFFICIENT_SCOPE');
      expect(await approvals()).toEqual([]);
      expect(notified).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a key that expires while its proposal is in flight asks the owner nothing', async () => {
    const { t, u, inFlight, approvals, notified, close } = await heldProposal();
    try {
      const k = await newKey(t.app, u, { expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString() });
      const out = mcpOutcome(await inFlight(() => propose(t, k.key), async () => t.clock.advance(61_000)));
      expect(out.body.error, JSON.stringify(out)).toBe('INVALID_TOKEN');
      expect(await approvals()).toEqual([]);
      expect(notified).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an app connected by OAuth, revoked while its proposal is in flight, asks the owner nothing', async () => {
    const { t, u, inFlight, approvals, notified, close } = await heldProposal({ env: { PUBLIC_URL: ORIGIN } });
    try {
      const clientId = await register(t.app);
      const started = await startAuthorization(t.app, clientId, { scope: 'thresholds:propose thresholds:read' });
      const connected = await finishAuthorization(t.app, u, clientId, started, { scopes: ['thresholds:propose', 'thresholds:read'] });
      const agentId = async () => (await agentsOf(t.app, u)).find((a) => a.kind === 'oauth')!.id;
      const out = mcpOutcome(await inFlight(() => propose(t, connected.access_token), async () => revoke(t, u, await agentId())));
      expect(out.body.error, JSON.stringify(out)).toBe('INVALID_TOKEN');
      expect(await approvals()).toEqual([]);
      expect(notified).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a proposal not raced by any change still reaches the owner', async () => {
    const { t, u, approvals, notified, close } = await heldProposal();
    try {
      const k = await newKey(t.app, u);
      const out = mcpOutcome(await propose(t, k.key));
      expect(out.status, JSON.stringify(out)).toBe(201);
      expect(await approvals()).toHaveLength(1);
      expect(notified).toHaveLength(1);
    } finally {
      await close();
    }
  });
});

/**
 * PostgreSQL: a payout's decision read the key and thresholds under the per-user lock, and commits a few statements
 * later. An owner's change that answered in between, without waiting for that lock, would answer before a payout
 * decided on what it replaced. Another connection holds the user's usage row, so the payout stops right after its
 * decision (at its usage upsert); the owner's change is asked then.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('an owner change answers only after a payout decided before it (PostgreSQL)', () => {
  async function holdUsageRow(t: TestApp, userId: string) {
    const c = new pg.Client({ connectionString: t.config.databaseUrl });
    await c.connect();
    await c.query('begin');
    const held = await c.query('select 1 from payout_usage where subject = $1 for update', [`u:${userId}`]);
    expect(held.rowCount).toBeGreaterThan(0);
    const waiting = async () => (await c.query<{ n: number }>(WAITING_ON_ME_SQL)).rows[0]!.n > 0;
    return {
      waitForPayoutBlocked: async () => {
        for (let i = 0; i < 200 && !(await waiting()); i++) await new Promise((r) => setTimeout(r, 50));
        expect(await waiting(), 'the payout waits for the held usage row').toBe(true);
      },
      release: async () => {
        await c.query('commit').catch(() => {});
        await c.end();
      },
    };
  }

  const answeredWithin = async <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  for (const change of ['delete the key', 'narrow the key allowlist', 'lower the per-tx limit'] as const) {
    it(`${change}: if it answered while the payout was being decided, that payout is not sent on what it replaced`, async () => {
      const t = await startTestApp();
      let hold: Awaited<ReturnType<typeof holdUsageRow>> | null = null;
      try {
        const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
        await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
        const k = await newKey(t.app, u);
        expect((await withdraw(t.app, k.token, { amount_ars: 1, destination: EXTERNAL_CBU })).statusCode).toBe(201); // the usage row exists
        hold = await holdUsageRow(t, u.id);
        const pending = withdraw(t.app, k.token, { amount_ars: 100, destination: EXTERNAL_CBU });
        await hold.waitForPayoutBlocked();
        const owner =
          change === 'delete the key'
            ? t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${k.id}`, headers: bearer(u.ownerToken) })
            : change === 'narrow the key allowlist'
              ? t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${k.id}`, headers: bearer(u.ownerToken), payload: { allowlist: [OTHER_CBU] } })
              : t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { per_tx_limit_ars: 50 } });
        const ownerAnsweredFirst = await answeredWithin(owner, 1000);
        await hold.release();
        hold = null;
        const res = await pending;
        expect((await owner).statusCode).toBeLessThan(300);
        // The payout was decided before the change: fine, as long as the change did not answer first.
        if (res.statusCode === 201) expect(ownerAnsweredFirst, 'the owner was told the change was made while a payout on the old terms was still to commit').toBe(false);
      } finally {
        await hold?.release();
        await t.close();
      }
    });
  }
});

/**
 * PostgreSQL: a proposal reads its key and commits its approval a statement later. For a user without a wallet there
 * is no per-user lock row, so the key row itself must hold a revoke until the proposal has committed. Another
 * connection holds the approvals table, so the proposal stops right after reading its key; the revoke is asked then.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('a revoke answers only after a proposal that read the key before it (PostgreSQL)', () => {
  it('a user without a wallet: if the revoke answered while the proposal was on its way, the owner is asked nothing', async () => {
    const t = await startTestApp();
    const c = new pg.Client({ connectionString: t.config.databaseUrl });
    let held = false;
    const release = async () => {
      if (held) await c.query('commit');
      held = false;
    };
    try {
      const u = await createUser(t.app);
      await c.connect();
      await c.query('begin');
      await c.query('lock table approvals in exclusive mode');
      held = true;
      const pending = mcpCall(t.app, u.apiKey, 'propose_threshold_change', { per_tx_limit_ars: 999_999 });
      const blocked = async () => (await c.query<{ n: number }>(WAITING_ON_ME_SQL)).rows[0]!.n > 0;
      for (let i = 0; i < 200 && !(await blocked()); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await blocked(), 'the proposal waits to insert its approval').toBe(true);
      const owner = t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${u.apiKeyId}`, headers: bearer(u.ownerToken) });
      const ownerAnsweredFirst = await Promise.race([owner.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 1000))]);
      await release();
      const out = mcpOutcome(await pending);
      expect((await owner).statusCode).toBe(204);
      // The proposal read the key before the revoke: fine, as long as the revoke did not answer first.
      if (out.status !== 'error') expect(ownerAnsweredFirst, 'the owner was told the agent was revoked while its proposal was still to reach them').toBe(false);
    } finally {
      await release().catch(() => {});
      await c.end().catch(() => {});
      await t.close();
    }
  });
});
