import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, eventTypes, expectError, EXTERNAL_CBU, settle, startTestApp, withdraw } from '../../../test/helpers.js';

describe('emergency stop (D31)', () => {
  it('pause: new payouts denied, approve refused, reject allowed, submitted ones confirm; resume restores', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000_000 });
      const post = (url: string, token = u.ownerToken) => t.app.inject({ method: 'POST', url, headers: bearer(token) });
      const sent = (await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU })).json();
      expect(sent.status).toBe('submitted');
      const held1 = (await withdraw(t.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU })).json();
      const held2 = (await withdraw(t.app, u.agentToken, { amount_ars: 60_001, destination: EXTERNAL_CBU })).json();

      expectError(await post('/v1/payouts/pause', u.agentToken), 403, 'OWNER_SESSION_REQUIRED');
      const paused = await post('/v1/payouts/pause');
      expect(paused.statusCode).toBe(200);
      expect(paused.json()).toMatchObject({ paused: true });
      expect((await post('/v1/payouts/pause')).json().paused_at).toBe(paused.json().paused_at); // twice: no change

      const denied = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU });
      expectError(denied, 422, 'PAYOUT_DENIED');
      expect(denied.json().reasons).toEqual(['payouts_paused']);
      expectError(await post(`/v1/approvals/${held1.approval_id}/approve`), 409, 'PAYOUTS_PAUSED');
      const stillHeld = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${held1.id}`, headers: bearer(u.ownerToken) })).json();
      expect(stillHeld.status).toBe('pending_approval');
      expect((await post(`/v1/approvals/${held2.approval_id}/reject`)).statusCode).toBe(200);

      await settle(t, 5_000);
      expect((await t.app.inject({ method: 'GET', url: `/v1/withdraws/${sent.id}`, headers: bearer(u.ownerToken) })).json().status).toBe('confirmed');

      expect((await post('/v1/payouts/resume')).json()).toEqual({ paused: false, paused_at: null, in_flight: [] });
      expect((await post(`/v1/approvals/${held1.approval_id}/approve`)).statusCode).toBe(200);
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU })).statusCode).toBe(201);
      const types = await eventTypes(t.app, u.id);
      expect(types.filter((e) => e === 'payouts.paused')).toHaveLength(1);
      expect(types.filter((e) => e === 'payouts.resumed')).toHaveLength(1);
      expect((await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(u.agentToken) })).json().paused).toBe(false);
    } finally {
      await t.close();
    }
  });
});
