import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, startTestApp, withdraw } from '../../../test/helpers.js';
import { systemClock } from '../../shared/clock.js';

/** Issue 13: a submitted payout is next checked when the rail can have settled it, not at a polling interval. */
describe('payout follow-up timing', () => {
  it('confirms a payout once the rail settles it, even when the job interval is a minute', async () => {
    const t = await startTestApp({
      env: { SANDBOX_CONFIRM_DELAY_MS: '300', JOBS_INTERVAL_MS: '60000' },
      deps: { clock: systemClock, startJobs: true },
    });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      const res = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU });
      expect(res.statusCode).toBe(201);
      const id = res.json().id as string;
      let status = '';
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && status !== 'confirmed') {
        await new Promise((r) => setTimeout(r, 100));
        status = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status;
      }
      expect(status).toBe('confirmed');
    } finally {
      await t.close();
    }
  });
});
