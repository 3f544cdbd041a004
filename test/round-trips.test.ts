import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, setThresholds, startTestApp, withdraw } from './helpers.js';

/**
 * On PostgreSQL every statement is a round trip (D42: nothing is batched behind the caller's back), and a
 * transaction holds its locks while it waits for each. An allowed payout, from request to confirmation, is two
 * transactions (the decision, the record of the submission and confirmation), each with its BEGIN, COMMIT and the
 * read of its transaction id that lets a lost COMMIT be resolved, and between them the sandbox bank's move, one
 * statement. This keeps a change from quietly adding statements to that path.
 */
/** Measured: 26 (the sandbox settles at once here, so the submission's record confirms it in the same transaction). */
const ROUND_TRIPS_MAX = 26;

describe.runIf(process.env.TEST_DATABASE_URL)('round trips of a payout on PostgreSQL', () => {
  it('an allowed payout, from request to confirmation, takes at most ROUND_TRIPS_MAX', async () => {
    // Before the app opens its pool: each pooled client keeps the `query` it had when it was wrapped.
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '0' } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      await setThresholds(t.app, u.ownerToken, { require_approval_above_ars: 0, whitelist_cbus: [] });
      // The first payout prepares its statements on the connection and warms the caches; the second is measured.
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU })).statusCode).toBe(201);
      sent.mockClear();
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU });
      expect(res.statusCode).toBe(201);
      // The sandbox settles at once and the confirmation follows the answer: wait until nothing more is sent.
      let count = -1;
      for (let i = 0; i < 60 && count !== sent.mock.calls.length; i++) {
        count = sent.mock.calls.length;
        await new Promise((r) => setTimeout(r, 100));
      }
      const after = await t.app.inject({ method: 'GET', url: `/v1/withdraws/${res.json().id}`, headers: bearer(u.agentToken) });
      expect(after.json().status).toBe('confirmed');
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(ROUND_TRIPS_MAX);
    } finally {
      sent.mockRestore();
      await t.close();
    }
  });
});
