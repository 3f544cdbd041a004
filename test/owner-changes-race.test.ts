import { describe, expect, it, vi } from 'vitest';
import { bearer, createOnboardedUser, expectError, EXTERNAL_CBU, setThresholds, startTestApp, withdraw } from './helpers.js';
import { startFakeTelegram } from './fake-telegram.js';
import { balanceOf, gatedResolve, mcpCall, mcpOutcome, payoutsOf } from './owner-control-kit.js';

/**
 * The owner's pause, limits and approvals racing an agent's payouts and proposals (D13, D16, D36).
 * Runs on SQLite and (TEST_DATABASE_URL) PostgreSQL.
 */

describe('the pause and the thresholds racing a payout in flight (D16, D36)', () => {
  it('a payout in flight when the pause answers is denied payouts_paused; after resume a new one goes', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      g.hold();
      const pending = withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'p-1');
      const viaMcp = mcpCall(t.app, u.apiKey, 'request_payout', { amount_ars: 100, destination: EXTERNAL_CBU, idempotency_key: 'p-2' });
      await vi.waitFor(() => expect(g.waiting).toBe(2));
      const pause = await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) });
      expect(pause.json()).toMatchObject({ paused: true, in_flight: [] });
      g.release();
      const res = await pending;
      expectError(res, 422, 'PAYOUT_DENIED');
      expect(res.json().reasons).toEqual(['payouts_paused']);
      expect(mcpOutcome(await viaMcp).body).toMatchObject({ error: 'PAYOUT_DENIED', reasons: ['payouts_paused'] });
      expect(await payoutsOf(t.app, u.id)).toEqual([]);
      // The keys were left free (D37): after resume the same keys pay once.
      await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: bearer(u.ownerToken) });
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'p-1')).statusCode).toBe(201);
      expect((await payoutsOf(t.app, u.id)).length).toBe(1);
    } finally {
      g.release();
      await t.close();
    }
  });

  it('an approval in flight (at its destination re-check) when the pause answers is refused 409 and the payout stays held', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      const held = await withdraw(t.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU });
      expect(held.statusCode).toBe(202);
      g.hold();
      const approving = t.app.inject({ method: 'POST', url: `/v1/approvals/${held.json().approval_id as string}/approve`, headers: bearer(u.ownerToken) });
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      const pause = await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) });
      expect(pause.json()).toMatchObject({ paused: true, in_flight: [] });
      g.release();
      expectError(await approving, 409, 'PAYOUTS_PAUSED');
      const rec = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${held.json().id as string}`, headers: bearer(u.ownerToken) })).json();
      expect(rec.status).toBe('pending_approval');
      expect(await balanceOf(t.app, u)).toBe('100000.00');
    } finally {
      g.release();
      await t.close();
    }
  });

  it('the owner lowers the per-tx limit while a payout is in flight: once the change has answered, the payout waits for the owner', async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      g.hold();
      const pending = withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU });
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 50, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      g.release();
      const res = await pending;
      expect([res.statusCode, res.json().reasons]).toEqual([202, ['per_tx_limit']]);
    } finally {
      g.release();
      await t.close();
    }
  });

  it('an agent proposal approved after the owner changed other limits changes only what it proposed', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 1000, daily_limit_ars: 5000, monthly_limit_ars: 20_000, require_approval_above_ars: 500 });
      const prop = mcpOutcome(await mcpCall(t.app, u.apiKey, 'propose_threshold_change', { daily_limit_ars: 8000 }));
      expect(prop.status, JSON.stringify(prop)).toBe(201);
      const approvalId = prop.body.approval_id as string;
      // The agent cannot approve its own proposal.
      expectError(await t.app.inject({ method: 'POST', url: `/v1/approvals/${approvalId}/approve`, headers: bearer(u.agentToken) }), 403, 'OWNER_SESSION_REQUIRED');
      // Meanwhile the owner tightens the per-tx limit.
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 10, daily_limit_ars: 5000, monthly_limit_ars: 20_000, require_approval_above_ars: 500 });
      expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${approvalId}/approve`, headers: bearer(u.ownerToken) })).statusCode).toBe(200);
      const th = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.ownerToken) })).json();
      expect(th).toMatchObject({ per_tx_limit_ars: 10, daily_limit_ars: 8000, monthly_limit_ars: 20_000, require_approval_above_ars: 500 });
    } finally {
      await t.close();
    }
  });

  it('a trusted-list proposal is refused once the owner changed the list meanwhile, on the dashboard too: its card may be stale', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const list = ['proveedor.uno', 'proveedor.dos', 'proveedor.tres'];
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 1000, whitelist_cbus: list });
      // The agent swaps the last one for its own.
      const prop = mcpOutcome(await mcpCall(t.app, u.apiKey, 'propose_threshold_change', { whitelist_cbus: ['proveedor.uno', 'proveedor.dos', 'agente.propio'] }));
      expect(prop.status, JSON.stringify(prop)).toBe(201);
      const approvalId = prop.body.approval_id as string;
      const listed = (await t.app.inject({ method: 'GET', url: '/v1/approvals?status=pending', headers: bearer(u.ownerToken) })).json();
      const shown = listed.approvals.find((a: { id: string }) => a.id === approvalId).threshold_change;
      expect(shown.proposed.whitelist_cbus).toEqual(['proveedor.uno', 'proveedor.dos', 'agente.propio']);
      // Meanwhile the owner trusts one more destination.
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 1000, whitelist_cbus: [...list, 'proveedor.cuatro'] });
      const approved = await t.app.inject({ method: 'POST', url: `/v1/approvals/${approvalId}/approve`, headers: bearer(u.ownerToken) });
      expectError(approved, 422, 'PAYOUT_DENIED');
      expect(approved.json().reasons).toEqual(['limits_changed']);
      const th = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.ownerToken) })).json();
      expect(th.whitelist_cbus).toEqual([...list, 'proveedor.cuatro']);
    } finally {
      await t.close();
    }
  });

  it('a proposal card fetched before the owner lowered the limit: approving it writes nothing (it showed a tightening, it would write a loosening)', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 100_000, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      const prop = mcpOutcome(await mcpCall(t.app, u.apiKey, 'propose_threshold_change', { per_tx_limit_ars: 50_000 }));
      const id = prop.body.approval_id as string;
      const card = (await t.app.inject({ url: `/v1/approvals/${id}`, headers: bearer(u.ownerToken) })).json();
      expect(card.threshold_change).toMatchObject({ current: { per_tx_limit_ars: 100_000 }, proposed: { per_tx_limit_ars: 50_000 }, limits_changed: false });
      // The owner lowers the limit in the form below the card; the card, not fetched again, still reads 100.000 → 50.000.
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 10_000, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      // Fetched again, the card says it can no longer be approved (the dashboard then offers only Rechazar).
      const again = (await t.app.inject({ url: `/v1/approvals/${id}`, headers: bearer(u.ownerToken) })).json();
      expect(again.threshold_change).toMatchObject({ current: { per_tx_limit_ars: 10_000 }, limits_changed: true });
      const approved = await t.app.inject({ method: 'POST', url: `/v1/approvals/${id}/approve`, headers: bearer(u.ownerToken) });
      expectError(approved, 422, 'PAYOUT_DENIED');
      const th = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.ownerToken) })).json();
      expect(th.per_tx_limit_ars).toBe(10_000);
    } finally {
      await t.close();
    }
  });

  it('a proposal too long to show the owner in one message is refused, and nothing is asked', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const many = Array.from({ length: 20 }, (_, i) => `agente.destino.${String(i).padStart(2, '0')}`);
      const res = mcpOutcome(await mcpCall(t.app, u.apiKey, 'propose_threshold_change', { whitelist_cbus: many }));
      expect(res.status).toBe('error');
      expect(res.body.error).toBe('INVALID_REQUEST');
      expect(String(res.body.message)).toMatch(/too long/);
      const pending = (await t.app.inject({ method: 'GET', url: '/v1/approvals?status=pending', headers: bearer(u.ownerToken) })).json();
      expect(pending.approvals).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('an agent proposal approves only what the owner was shown (D13)', () => {
  it('a proposal that would change nothing is refused INVALID_REQUEST, and nothing is asked', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 1000, whitelist_cbus: ['proveedor.uno'] });
      const res = mcpOutcome(await mcpCall(t.app, u.apiKey, 'propose_threshold_change', { per_tx_limit_ars: 1000, whitelist_cbus: ['proveedor.uno'] }));
      expect(res.status).toBe('error');
      expect(res.body.error).toBe('INVALID_REQUEST');
      const pending = (await t.app.inject({ method: 'GET', url: '/v1/approvals?status=pending', headers: bearer(u.ownerToken) })).json();
      expect(pending.approvals).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('a field proposed at its current value is not shown, so approving never writes it back over a later owner change', async () => {
    const TOKEN = '123456:TEST-token';
    const SECRET = 'tg-webhook-secret-0123456789';
    const CHAT = 777002;
    const tg = await startFakeTelegram(TOKEN);
    const t = await startTestApp({ env: { APPROVAL_CHANNELS: 'telegram', TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: SECRET, TELEGRAM_API_ROOT: tg.apiRoot } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      const post = (update: object) =>
        t.app.inject({ method: 'POST', url: '/v1/channels/telegram/webhook', headers: { 'x-telegram-bot-api-secret-token': SECRET }, payload: update });
      const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(u.ownerToken) })).json();
      await post({ update_id: 1, message: { message_id: 1, chat: { id: CHAT, type: 'private' }, from: { id: CHAT, username: 'ana' }, text: `/start ${code}` } });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 100_000, daily_limit_ars: 500_000, monthly_limit_ars: 2_000_000, require_approval_above_ars: 50_000 });

      // The agent asks for a larger per-tx limit, and "proposes" the daily limit as it is.
      const prop = mcpOutcome(await mcpCall(t.app, u.apiKey, 'propose_threshold_change', { per_tx_limit_ars: 150_000, daily_limit_ars: 500_000 }));
      expect(prop.status, JSON.stringify(prop)).toBe(201);
      const text = String(tg.of('sendMessage').at(-1)!.body.text);
      expect(text).toContain('Límite por pago');
      expect(text).not.toContain('Límite diario'); // nothing to show: it would not change

      // Later the owner tightens the daily limit, then approves the message about the per-tx limit.
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 100_000, daily_limit_ars: 1000, monthly_limit_ars: 2_000_000, require_approval_above_ars: 50_000 });
      await post({ update_id: 2, callback_query: { id: 'cb2', data: `a:${prop.body.approval_id as string}`, from: { id: CHAT }, message: { message_id: 1, chat: { id: CHAT } } } });
      const th = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.ownerToken) })).json();
      expect(th.per_tx_limit_ars).toBe(150_000);
      expect(th.daily_limit_ars, 'the daily limit the owner set after the proposal, which the approval never showed').toBe(1000);
    } finally {
      await t.close();
      await tg.close();
    }
  });
});
