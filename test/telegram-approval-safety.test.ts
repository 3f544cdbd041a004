import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { waitFor } from './bind-harness.js';
import { startFakeTelegram, telegramWebhook } from './fake-telegram.js';
import {
  bearer,
  createOnboardedUser,
  eventTypes,
  expectError,
  EXTERNAL_CBU,
  PASSWORD,
  setThresholds,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from './helpers.js';

/**
 * An adversarial pass over the Telegram approval channel (D23), through the webhook and the fake Bot API: only
 * the owner's linked chat decides, once, before expiry, never while paused, and what the message shows cannot be
 * spoofed by what an agent chose.
 */
const TOKEN = '123456:ADV-token';
const SECRET = 'tg-adv-webhook-secret-0123456789';

describe('Telegram approvals, adversarial', () => {
  let tg: Awaited<ReturnType<typeof startFakeTelegram>>;
  let t: TestApp;
  let ana: OnboardedUser;
  let bob: OnboardedUser;
  const ANA_CHAT = 111001;
  const BOB_CHAT = 222002;

  const hook = telegramWebhook(() => t.app, SECRET, 5000);
  const { post, pressUpdate } = hook;
  const press = (data: string, chatId: number) => hook.press(data, chatId);
  const start = (code: string, chatId: number) => hook.start(code, chatId, `u${chatId}`);
  const link = async (u: OnboardedUser, chatId: number) => {
    const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(u.ownerToken) })).json();
    await start(code, chatId);
    return code as string;
  };
  const statusOf = async (u: OnboardedUser, id: string) =>
    (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status;
  const lastAnswer = () => tg.of('answerCallbackQuery').at(-1)!.body.text;
  const refresh = async (u: OnboardedUser) => {
    u.agentToken = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: u.apiKey } })).json().token;
    u.ownerToken = (await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: u.email, password: PASSWORD } })).json().token;
  };
  const noLimits = { per_tx_limit_ars: 100000, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 50000, whitelist_cbus: [] };

  beforeAll(async () => {
    tg = await startFakeTelegram(TOKEN);
    t = await startTestApp({
      env: { APPROVAL_CHANNELS: 'dashboard,telegram', TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: SECRET, TELEGRAM_API_ROOT: tg.apiRoot },
    });
    ana = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 2_000_000 });
    bob = await createOnboardedUser(t.app, { name: 'Bob', fundArs: 2_000_000 });
    await setThresholds(t.app, ana.ownerToken, noLimits);
    await setThresholds(t.app, bob.ownerToken, noLimits);
    await link(ana, ANA_CHAT);
    await link(bob, BOB_CHAT);
  });
  afterAll(async () => {
    await t.close();
    await tg.close();
  });

  it('the webhook refuses a missing, wrong, truncated or differently-cased secret and changes nothing', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU })).json();
    const update = pressUpdate(`a:${approval_id}`, ANA_CHAT);
    for (const headers of <Record<string, string>[]>[{}, { 'x-telegram-bot-api-secret-token': '' }, { 'x-telegram-bot-api-secret-token': SECRET.slice(0, -1) }, { 'x-telegram-bot-api-secret-token': SECRET.toUpperCase() }, { 'x-telegram-bot-api-secret-token': `${SECRET}x` }]) {
      expect((await post(update, headers)).statusCode).toBe(403);
    }
    expect(await statusOf(ana, id)).toBe('pending_approval');
    // The forged deliveries did not spend the update id: Telegram's own delivery of it still counts.
    expect((await post(update)).statusCode).toBe(200);
    expect(await statusOf(ana, id)).toBe('submitted');
  });

  it("another owner's linked chat pressing this owner's approval (forged callback data) changes nothing", async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 61_000, destination: EXTERNAL_CBU })).json();
    const events = await eventTypes(t.app, ana.id, id);
    await press(`a:${approval_id}`, BOB_CHAT);
    expect(lastAnswer()).toBe('No autorizado');
    await press(`r:${approval_id}`, BOB_CHAT);
    expect(lastAnswer()).toBe('No autorizado');
    await press(`a:${approval_id}`, 333003); // a chat nobody linked
    expect(lastAnswer()).toBe('No autorizado');
    await press('a:apr_doesnotexist', ANA_CHAT);
    expect(lastAnswer()).toBe('No autorizado');
    await press(`x:${approval_id}`, ANA_CHAT);
    await press(`a:${approval_id} `, ANA_CHAT);
    await press(`a:${approval_id}:extra`, ANA_CHAT);
    expect(lastAnswer()).toBe('Botón no reconocido');
    expect(await statusOf(ana, id)).toBe('pending_approval');
    expect(await eventTypes(t.app, ana.id, id)).toEqual(events);
    const approval = (await t.app.inject({ method: 'GET', url: `/v1/approvals/${approval_id}`, headers: bearer(ana.ownerToken) })).json();
    expect(approval).toMatchObject({ status: 'pending', decided_via: null });
  });

  it('approve and reject pressed at once, and a double press: exactly one decision and one event', async () => {
    for (let i = 0; i < 3; i++) {
      const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 62_000 + i, destination: EXTERNAL_CBU })).json();
      const res = await Promise.all([press(`a:${approval_id}`, ANA_CHAT), press(`r:${approval_id}`, ANA_CHAT), press(`a:${approval_id}`, ANA_CHAT)]);
      expect(res.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      const events = await eventTypes(t.app, ana.id, id);
      const decisions = events.filter((e) => e === 'payout.approved' || e === 'payout.rejected');
      expect(decisions).toHaveLength(1);
      const status = await statusOf(ana, id);
      expect(decisions[0] === 'payout.approved' ? ['submitted', 'approved'] : ['rejected']).toContain(status);
    }
  });

  it('a press after the owner paused payouts sends nothing; after resume it still can be decided', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 63_000, destination: EXTERNAL_CBU })).json();
    expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(ana.ownerToken) })).statusCode).toBe(200);
    await press(`a:${approval_id}`, ANA_CHAT);
    // The owner is told why, as on WhatsApp, not a bare "could not complete".
    expect(lastAnswer()).toBe('Pagos pausados: no se puede aprobar. Podés rechazar, o reanudar desde el panel.');
    expect(await statusOf(ana, id)).toBe('pending_approval');
    expect(await eventTypes(t.app, ana.id, id)).not.toContain('payout.approved');
    await t.app.jobs.payoutFollowUp!.runOnce();
    expect(await statusOf(ana, id)).toBe('pending_approval');
    expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: bearer(ana.ownerToken) })).statusCode).toBe(200);
    await press(`r:${approval_id}`, ANA_CHAT);
    expect(await statusOf(ana, id)).toBe('rejected');
  });

  it('while paused, an approval whose window has ended is answered as expired, not as paused (and the dashboard says 409 APPROVAL_EXPIRED)', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 63_500, destination: EXTERNAL_CBU })).json();
    expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(ana.ownerToken) })).statusCode).toBe(200);
    try {
      t.clock.advance(301_000); // past the window; the expiry job has not run
      const approve = await t.app.inject({ method: 'POST', url: `/v1/approvals/${approval_id}/approve`, headers: bearer(ana.ownerToken) });
      expect(approve.json().error).toBe('APPROVAL_EXPIRED');
      await press(`a:${approval_id}`, ANA_CHAT);
      // Not "you may reject": rejecting would fail too; the message shows it ended.
      expect(lastAnswer()).toBe('Vencido: ya no se puede decidir');
      expect(await statusOf(ana, id)).toBe('expired');
    } finally {
      expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: bearer(ana.ownerToken) })).statusCode).toBe(200);
      await refresh(ana);
    }
  });

  it('Aprobar on a payout the re-check ends (KYC no longer verified) tells the owner why, as WhatsApp does', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 63_700, destination: EXTERNAL_CBU })).json();
    const kyc = (status: string) => t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(ana.ownerToken), payload: { status } });
    await kyc('pending');
    try {
      await press(`a:${approval_id}`, ANA_CHAT);
      // Not a bare "could not complete" next to a message that now reads "Rechazado" though the owner approved.
      expect(lastAnswer()).toBe('No se pudo aprobar: tu identidad todavía no está verificada. El pedido se cerró sin pagar.');
      expect(await statusOf(ana, id)).toBe('failed');
      // And the message keeps saying so, rather than "❌ Rechazado" as if the owner had rejected it.
      const edited = String(tg.of('editMessageText').at(-1)!.body.text);
      expect(edited).toContain('🚫 No se pudo aprobar');
      expect(edited).not.toContain('Rechazado');
    } finally {
      await kyc('verified');
    }
  });

  it('after unlinking, and after linking a new chat, the old chat cannot decide; the new one can', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 64_000, destination: EXTERNAL_CBU })).json();
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/approval-channels/telegram', headers: bearer(ana.ownerToken) })).statusCode).toBe(204);
    await press(`a:${approval_id}`, ANA_CHAT);
    expect(lastAnswer()).toBe('No autorizado');
    expect(await statusOf(ana, id)).toBe('pending_approval');
    const NEW_CHAT = 111999;
    await link(ana, NEW_CHAT);
    await press(`a:${approval_id}`, ANA_CHAT);
    expect(lastAnswer()).toBe('No autorizado');
    expect(await statusOf(ana, id)).toBe('pending_approval');
    await press(`r:${approval_id}`, NEW_CHAT);
    expect(await statusOf(ana, id)).toBe('rejected');
    // Back to the first chat for the rest.
    await link(ana, ANA_CHAT);
  });

  it('a link code is one-time across chats and expires; it cannot take over another chat or user', async () => {
    const u = await createOnboardedUser(t.app);
    const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(u.ownerToken) })).json();
    expect(code.length).toBeGreaterThanOrEqual(16); // 96 random bits: not guessable
    // Someone presses Start with a wrong, empty or guessed code: nothing linked.
    for (const c of ['', 'x', code.slice(0, -1), code.toUpperCase() === code ? code.toLowerCase() : code.toUpperCase()]) await start(c, 444004);
    const linked = () => t.app.ctx.store.db.selectFrom('telegram_links').selectAll().where('user_id', '=', u.id).executeTakeFirst();
    expect(await linked()).toBeUndefined();
    await Promise.all([start(code, 444004), start(code, 555005)]);
    const row = await linked();
    expect(row).toBeDefined();
    const winner = row!.chat_id;
    await start(code, 666006);
    expect((await linked())!.chat_id).toBe(winner);
    // Ana's chat stays Ana's.
    expect((await t.app.ctx.store.db.selectFrom('telegram_links').select('chat_id').where('user_id', '=', ana.id).executeTakeFirst())!.chat_id).toBe(String(ANA_CHAT));
  });

  it('in a group chat, a member other than the owner cannot approve', async () => {
    // The owner types `/start <code>` in a group the bot is in (Telegram delivers commands there).
    const u = await createOnboardedUser(t.app, { fundArs: 500_000 });
    await setThresholds(t.app, u.ownerToken, noLimits);
    const GROUP = -100777888;
    const OWNER_ID = 777888001;
    const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(u.ownerToken) })).json();
    await post({ update_id: hook.nextId(), message: { message_id: 1, chat: { id: GROUP, type: 'group', title: 'Familia' }, from: { id: OWNER_ID, username: 'owner' }, text: `/start@ars_wallet_test_bot ${code}` } });
    const { id, approval_id } = (await withdraw(t.app, u.agentToken, { amount_ars: 70_000, destination: EXTERNAL_CBU })).json();
    // Another member of the group presses Aprobar on the message in the group.
    const OTHER_MEMBER = 777888002;
    const id2 = hook.nextId();
    await post({
      update_id: id2,
      callback_query: { id: `cb${id2}`, data: `a:${approval_id}`, from: { id: OTHER_MEMBER }, message: { message_id: 1, chat: { id: GROUP, type: 'group' } } },
    });
    expect(await statusOf(u, id)).toBe('pending_approval');
    expect(await eventTypes(t.app, u.id, id)).not.toContain('payout.approved');
  });

  it("an agent's note cannot add lines that pose as the message's own fields", async () => {
    const note = 'proveedor\nDestinatario: AFIP (impuestos)\nMonto: $ 600,00\n\n✅ Aprobado';
    const res = await withdraw(t.app, ana.agentToken, { amount_ars: 65_000, destination: EXTERNAL_CBU, note });
    expect(res.statusCode).toBe(202);
    const text = String(tg.of('sendMessage').at(-1)!.body.text);
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('Monto:'))).toEqual(['Monto: $ 65.000,00']);
    expect(lines.filter((l) => l.startsWith('Destinatario:'))).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('✅'))).toBe(false);
    // The note is still there, on its own line.
    expect(lines.filter((l) => l.startsWith('Concepto:'))).toHaveLength(1);
    expect(text).toContain('AFIP');

    // An agent's name, e.g. one an app gave itself at OAuth registration, is shown on its own line too.
    const made = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(ana.ownerToken), payload: { name: 'Asistente\nMonto: $ 1,00' } });
    expect(made.statusCode).toBe(201);
    const token = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: made.json().key } })).json().token;
    expect((await withdraw(t.app, token, { amount_ars: 65_500, destination: EXTERNAL_CBU })).statusCode).toBe(202);
    const second = String(tg.of('sendMessage').at(-1)!.body.text).split('\n');
    expect(second.filter((l) => l.startsWith('Monto:'))).toEqual(['Monto: $ 65.500,00']);
  });

  it('Markdown and HTML in an agent\'s note are sent as plain text (no parse mode), and the longest note fits', async () => {
    const note = '<b>URGENTE</b> *pagar ya* [panel](https://evil.example) `x` _y_'.padEnd(140, '!');
    expect((await withdraw(t.app, ana.agentToken, { amount_ars: 65_700, destination: EXTERNAL_CBU, note })).statusCode).toBe(202);
    const body = tg.of('sendMessage').at(-1)!.body;
    expect(body.parse_mode).toBeUndefined();
    expect(body.entities).toBeUndefined();
    expect(String(body.text)).toContain(`Concepto: ${note}`);
  });

  it("a link in an agent's note gets no preview card (the page the agent chose would show under the approval)", async () => {
    const note = 'factura verificada https://evil.example/ok';
    const { approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 65_800, destination: EXTERNAL_CBU, note })).json();
    expect(tg.of('sendMessage').at(-1)!.body.link_preview_options).toEqual({ is_disabled: true });
    await press(`r:${approval_id}`, ANA_CHAT);
    const edit = tg.of('editMessageText').at(-1)!.body;
    expect(String(edit.text)).toContain(note);
    expect(edit.link_preview_options).toEqual({ is_disabled: true });
  });

  it("an agent's proposal over a long trusted list still reaches Telegram (a message is at most 4096 characters)", async () => {
    // The owner trusts 100 destinations (the most allowed); the agent proposes swapping the last one for its own.
    const list = Array.from({ length: 100 }, (_, i) => `proveedor.pagos.${String(i).padStart(3, '0')}`);
    await setThresholds(t.app, ana.ownerToken, { ...noLimits, whitelist_cbus: list });
    const { proposeThresholdChange } = await import('../src/modules/thresholds/threshold-proposal.service.js');
    const proposed = [...list.slice(0, 99), 'agente.cuenta.propia'];
    const p = await proposeThresholdChange(t.app.ctx, { userId: ana.id, kind: 'api_key', keyId: ana.apiKeyId, keyName: 'default' }, { whitelist_cbus: proposed });
    const row = await t.app.ctx.store.db.selectFrom('telegram_messages').select('message_id').where('approval_id', '=', p.approval_id).executeTakeFirst();
    try {
      expect(row).toBeDefined(); // delivered, not retried every 15 s until it expires
      expect(String(tg.of('sendMessage').at(-1)!.body.text)).toContain('agente.cuenta.propia');
    } finally {
      await setThresholds(t.app, ana.ownerToken, noLimits);
    }
  });

  it("Aprobar on an agent's limits proposal after the owner changed those limits writes nothing: the message showed other limits", async () => {
    const { proposeThresholdChange } = await import('../src/modules/thresholds/threshold-proposal.service.js');
    const agent = { userId: ana.id, kind: 'api_key' as const, keyId: ana.apiKeyId, keyName: 'default' };
    const perTx = async () => (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(ana.ownerToken) })).json().per_tx_limit_ars;
    await setThresholds(t.app, ana.ownerToken, { ...noLimits, per_tx_limit_ars: 300_000 });
    try {
      const p = await proposeThresholdChange(t.app.ctx, agent, { per_tx_limit_ars: 200_000 });
      // What the owner reads: a tightening.
      expect(String(tg.of('sendMessage').at(-1)!.body.text)).toContain('Límite por pago: $ 300.000,00 → $ 200.000,00');
      // Worried, the owner tightens much further on the dashboard; later presses Aprobar on the old message.
      await setThresholds(t.app, ana.ownerToken, { ...noLimits, per_tx_limit_ars: 10_000 });
      await press(`a:${p.approval_id}`, ANA_CHAT);
      expect(await perTx()).toBe(10_000); // not loosened twentyfold
      expect(lastAnswer()).toBe('No se pudo aprobar: cambiaste esos límites después de la propuesta; el agente puede proponerla de nuevo. El pedido se cerró sin cambiar tus límites.');
      const edited = String(tg.of('editMessageText').at(-1)!.body.text);
      expect(edited).toContain('🚫 No se pudo aprobar');
      expect(edited).toContain('sin cambiar tus límites');
      const decided = (await t.app.inject({ url: `/v1/approvals/${p.approval_id}`, headers: bearer(ana.ownerToken) })).json();
      expect(decided).toMatchObject({ status: 'rejected', decided_via: 'policy' });

      // The dashboard too: its card may have been fetched before the change (another tab, the form below it).
      const again = await proposeThresholdChange(t.app.ctx, agent, { per_tx_limit_ars: 20_000 });
      await setThresholds(t.app, ana.ownerToken, { ...noLimits, per_tx_limit_ars: 15_000 });
      const onDashboard = await t.app.inject({ method: 'POST', url: `/v1/approvals/${again.approval_id}/approve`, headers: bearer(ana.ownerToken) });
      expectError(onDashboard, 422, 'PAYOUT_DENIED');
      expect(onDashboard.json().reasons).toEqual(['limits_changed']);
      expect(await perTx()).toBe(15_000);
      // A proposal whose limits nobody touched is approved from Telegram as before.
      const third = await proposeThresholdChange(t.app.ctx, agent, { per_tx_limit_ars: 25_000 });
      await press(`a:${third.approval_id}`, ANA_CHAT);
      expect(lastAnswer()).toBe('Aprobado');
      expect(await perTx()).toBe(25_000);
    } finally {
      await setThresholds(t.app, ana.ownerToken, noLimits);
    }
  });

  it('two proposals that each take one trusted destination away cannot together empty the list from Telegram (an empty list lets any destination through)', async () => {
    const { proposeThresholdChange } = await import('../src/modules/thresholds/threshold-proposal.service.js');
    const agent = { userId: ana.id, kind: 'api_key' as const, keyId: ana.apiKeyId, keyName: 'default' };
    const whitelist = async () => (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(ana.ownerToken) })).json().whitelist_cbus;
    await setThresholds(t.app, ana.ownerToken, { ...noLimits, whitelist_cbus: ['mate.rio.sol', 'otro.alias.x'] });
    try {
      const held = await withdraw(t.app, ana.agentToken, { amount_ars: 1_000, destination: EXTERNAL_CBU });
      expect(held.json()).toMatchObject({ status: 'pending_approval', reasons: ['destination_not_whitelisted'] });
      await press(`r:${held.json().approval_id}`, ANA_CHAT);
      // Each message reads as a tightening: one destination taken away, one left.
      const p1 = await proposeThresholdChange(t.app.ctx, agent, { whitelist_cbus: ['otro.alias.x'] });
      const p2 = await proposeThresholdChange(t.app.ctx, agent, { whitelist_cbus: ['mate.rio.sol'] });
      await press(`a:${p1.approval_id}`, ANA_CHAT);
      expect(lastAnswer()).toBe('Aprobado');
      expect(await whitelist()).toEqual(['otro.alias.x']);
      await press(`a:${p2.approval_id}`, ANA_CHAT);
      expect(lastAnswer()).toContain('cambiaste esos límites después de la propuesta');
      expect(await whitelist()).toEqual(['otro.alias.x']);
      expect((await withdraw(t.app, ana.agentToken, { amount_ars: 1_000, destination: EXTERNAL_CBU })).json().status).toBe('pending_approval');

      // The same when the owner edits the list on the dashboard after the proposal: its message showed another list.
      await setThresholds(t.app, ana.ownerToken, { ...noLimits, whitelist_cbus: ['mate.rio.sol', 'otro.alias.x'] });
      const p3 = await proposeThresholdChange(t.app.ctx, agent, { whitelist_cbus: ['mate.rio.sol'] });
      await setThresholds(t.app, ana.ownerToken, { ...noLimits, whitelist_cbus: ['otro.alias.x'] });
      await press(`a:${p3.approval_id}`, ANA_CHAT);
      expect(await whitelist()).toEqual(['otro.alias.x']);
      // A proposal stored before the list was recorded with it: its button may still not empty the list.
      await setThresholds(t.app, ana.ownerToken, { ...noLimits, whitelist_cbus: ['otro.alias.x'] });
      const old = await proposeThresholdChange(t.app.ctx, agent, { whitelist_cbus: [] });
      const row = await t.app.ctx.store.db.selectFrom('approvals').select('proposal').where('id', '=', old.approval_id).executeTakeFirstOrThrow();
      const { was: _was, ...stored } = JSON.parse(row.proposal!) as Record<string, unknown>;
      await t.app.ctx.store.db.updateTable('approvals').set({ proposal: JSON.stringify(stored) }).where('id', '=', old.approval_id).execute();
      await press(`a:${old.approval_id}`, ANA_CHAT);
      expect(await whitelist()).toEqual(['otro.alias.x']);
      // A list nobody touched since: approved from Telegram as before, and it adds as shown.
      const p4 = await proposeThresholdChange(t.app.ctx, agent, { whitelist_cbus: ['otro.alias.x', 'nuevo.alias.y'] });
      await press(`a:${p4.approval_id}`, ANA_CHAT);
      expect(lastAnswer()).toBe('Aprobado');
      expect(await whitelist()).toEqual(['otro.alias.x', 'nuevo.alias.y']);
      // Decided, the proposal is shown against the list it was made on.
      const decided = (await t.app.inject({ url: `/v1/approvals/${p4.approval_id}`, headers: bearer(ana.ownerToken) })).json();
      expect(decided.threshold_change).toMatchObject({ current: { whitelist_cbus: ['otro.alias.x'] }, proposed: { whitelist_cbus: ['otro.alias.x', 'nuevo.alias.y'] } });
    } finally {
      await setThresholds(t.app, ana.ownerToken, noLimits);
    }
  });

  it('Telegram down when the approval is created: the owner decides on the dashboard and no stale notice follows', async () => {
    tg.setFailing(true);
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 66_000, destination: EXTERNAL_CBU })).json();
    expect(await statusOf(ana, id)).toBe('pending_approval');
    const listed = (await t.app.inject({ method: 'GET', url: '/v1/approvals?status=pending', headers: bearer(ana.ownerToken) })).json();
    expect(listed.approvals.map((a: { id: string }) => a.id)).toContain(approval_id);
    const approve = await t.app.inject({ method: 'POST', url: `/v1/approvals/${approval_id}/approve`, headers: bearer(ana.ownerToken) });
    expect(approve.statusCode).toBe(200);
    expect(await statusOf(ana, id)).toBe('submitted');
    tg.setFailing(false);
    t.clock.advance(31_000);
    const asks = () => tg.of('sendMessage').filter((c) => JSON.stringify(c.body).includes(approval_id)).length;
    const before = asks();
    await t.app.jobs.approvalNotices!.runOnce();
    expect(asks()).toBe(before); // nothing asks the owner to decide what is decided
    expect(await t.app.ctx.store.db.selectFrom('approvals').select('notify_next_at').where('id', '=', approval_id).executeTakeFirst()).toEqual({ notify_next_at: null });
    await refresh(ana);
  });

  it('a notice claimed late in a slow batch is not sent again by another node meanwhile (each claim holds its own lease)', async () => {
    const { retryPendingNotices } = await import('../src/modules/approvals/approvals.notices.js');
    tg.setFailing(true);
    const ids: string[] = [];
    try {
      for (let i = 0; i < 5; i++) ids.push((await withdraw(t.app, ana.agentToken, { amount_ars: 67_000 + i, destination: EXTERNAL_CBU })).json().approval_id);
    } finally {
      tg.setFailing(false);
    }
    const from = tg.of('sendMessage').length; // the failed first tries are not counted
    const sendsFor = (id: string) => tg.of('sendMessage').slice(from).filter((c) => JSON.stringify(c.body).includes(id)).length;
    t.clock.advance(31_000);
    tg.setHanging(true);
    try {
      // This node works four at a time: four sends hang while the fifth waits for its turn.
      const first = retryPendingNotices(t.app.ctx);
      await waitFor(async () => tg.heldCount() === 4, 'four sends in flight');
      t.clock.advance(40_000); // Telegram takes its time
      tg.releaseHeld();
      await waitFor(async () => tg.heldCount() === 1, 'the fifth send in flight');
      // Another node's job runs now: the fifth is claimed by the first, so it is not sent again.
      const second = retryPendingNotices(t.app.ctx);
      await new Promise((r) => setTimeout(r, 200));
      tg.setHanging(false);
      await Promise.all([first, second]);
      for (const id of ids) expect(sendsFor(id), id).toBe(1);
    } finally {
      tg.setHanging(false);
      for (const id of ids) await t.app.inject({ method: 'POST', url: `/v1/approvals/${id}/reject`, headers: bearer(ana.ownerToken) });
      await refresh(ana);
    }
  });

  it('a decision taken while its request is still being sent to Telegram: the message, once sent, shows the outcome', async () => {
    tg.setHanging(true);
    let approvalId = '';
    try {
      // The payout request waits 2 s for its notice at most, then answers; the send is still in flight.
      const res = await withdraw(t.app, ana.agentToken, { amount_ars: 68_000, destination: EXTERNAL_CBU });
      expect(res.statusCode).toBe(202);
      approvalId = res.json().approval_id;
      expect(tg.heldCount()).toBe(1);
      expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${approvalId}/reject`, headers: bearer(ana.ownerToken) })).statusCode).toBe(200);
    } finally {
      tg.setHanging(false);
    }
    await waitFor(async () => tg.of('editMessageText').some((c) => String(c.body.text).includes('❌ Rechazado') && String(c.body.text).includes('68.000')), 'the late message to show the outcome');
    const sent = tg.of('sendMessage').filter((c) => JSON.stringify(c.body).includes(approvalId));
    expect(sent).toHaveLength(1);
    await refresh(ana);
  });

  it('Telegram down when the owner decides: the message shows the outcome once Telegram is back, not its buttons; retried for an hour at most', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 66_100, destination: EXTERNAL_CBU })).json();
    const sent = tg.of('sendMessage').filter((c) => JSON.stringify(c.body).includes(approval_id));
    expect(sent).toHaveLength(1);
    const editsBefore = tg.of('editMessageText').length;
    tg.setFailing(true);
    try {
      expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${approval_id}/approve`, headers: bearer(ana.ownerToken) })).statusCode).toBe(200);
      expect(await statusOf(ana, id)).toBe('submitted');
    } finally {
      tg.setFailing(false);
    }
    const owed = async () => t.app.ctx.store.db.selectFrom('approvals').select(['notify_pending', 'notify_next_at']).where('id', '=', approval_id).executeTakeFirstOrThrow();
    expect((await owed()).notify_pending).toBe('["telegram"]');
    t.clock.advance(16_000);
    await t.app.jobs.approvalNotices!.runOnce();
    const edit = tg.of('editMessageText').slice(editsBefore).at(-1)!;
    expect(String(edit.body.text)).toContain('✅ Aprobado');
    expect(edit.body.reply_markup).toBeUndefined();
    expect(await owed()).toEqual({ notify_pending: '[]', notify_next_at: null });

    // A message the owner deleted can never show the outcome: nothing is owed for it.
    const gone = (await withdraw(t.app, ana.agentToken, { amount_ars: 66_150, destination: EXTERNAL_CBU })).json();
    tg.setEditsGone(true);
    try {
      expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${gone.approval_id}/reject`, headers: bearer(ana.ownerToken) })).statusCode).toBe(200);
      expect(await t.app.ctx.store.db.selectFrom('approvals').select(['notify_pending', 'notify_next_at']).where('id', '=', gone.approval_id).executeTakeFirstOrThrow()).toEqual({
        notify_pending: '[]',
        notify_next_at: null,
      });
    } finally {
      tg.setEditsGone(false);
    }

    // Telegram gone for good: the job stops trying an hour after the decision.
    const second = (await withdraw(t.app, ana.agentToken, { amount_ars: 66_200, destination: EXTERNAL_CBU })).json();
    tg.setFailing(true);
    try {
      expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${second.approval_id}/reject`, headers: bearer(ana.ownerToken) })).statusCode).toBe(200);
      for (let i = 0; i < 5; i++) {
        t.clock.advance(15 * 60_000);
        await t.app.jobs.approvalNotices!.runOnce();
      }
      expect(await t.app.ctx.store.db.selectFrom('approvals').select('notify_next_at').where('id', '=', second.approval_id).executeTakeFirstOrThrow()).toEqual({ notify_next_at: null });
    } finally {
      tg.setFailing(false);
      await refresh(ana);
    }
  });

  it('Telegram slow to answer: the payout request and the owner\'s decision answer at once, and the notice still goes out', async () => {
    const sentFor = (approvalId: string) =>
      t.app.ctx.store.db.selectFrom('telegram_messages').select('message_id').where('approval_id', '=', approvalId).executeTakeFirst();
    tg.setHanging(true);
    try {
      let began = Date.now();
      const asked = await withdraw(t.app, ana.agentToken, { amount_ars: 68_000, destination: EXTERNAL_CBU });
      expect(asked.statusCode).toBe(202);
      expect(Date.now() - began).toBeLessThan(5_000);
      const { id, approval_id } = asked.json();
      tg.setHanging(false); // Telegram answers the send it held: the owner is asked, nothing was lost
      await vi.waitFor(async () => expect(await sentFor(approval_id)).toBeDefined(), { timeout: 5_000 });
      tg.setHanging(true);
      began = Date.now();
      const approve = await t.app.inject({ method: 'POST', url: `/v1/approvals/${approval_id}/approve`, headers: bearer(ana.ownerToken) });
      expect(approve.statusCode).toBe(200);
      expect(Date.now() - began).toBeLessThan(5_000);
      expect(await statusOf(ana, id)).toBe('submitted');
    } finally {
      tg.setHanging(false);
    }
    await refresh(ana);
  });

  it('a press after expiry does nothing but say so', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 67_000, destination: EXTERNAL_CBU })).json();
    t.clock.advance(3600_000);
    await press(`a:${approval_id}`, ANA_CHAT);
    expect(lastAnswer()).toBe('Vencido: ya no se puede decidir');
    expect(await statusOf(ana, id)).toBe('expired');
    await refresh(ana);
  });
});
