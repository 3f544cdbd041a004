import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, telegramWebhook } from '../../../test/fake-telegram.js';
import {
  bearer,
  createOnboardedUser,
  eventTypes,
  expectError,
  EXTERNAL_CBU,
  settle,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';

const TOKEN = '123456:TEST-token';
const SECRET = 'tg-webhook-secret-0123456789';

describe('Telegram approval channel (D23)', () => {
  let tg: Awaited<ReturnType<typeof startFakeTelegram>>;
  let t: TestApp;
  let owner: OnboardedUser;
  const CHAT = 777001;
  const hook = telegramWebhook(() => t.app, SECRET, 1000);
  const post = hook.post;
  const press = (data: string, chatId = CHAT, id?: number) => hook.press(data, chatId, { id });
  const start = (code: string, chatId = CHAT) => hook.start(code, chatId, 'ana');
  const payoutStatus = async (u: OnboardedUser, id: string) =>
    (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status;
  const lastSent = () => tg.of('sendMessage').at(-1)!;

  beforeAll(async () => {
    tg = await startFakeTelegram(TOKEN);
    t = await startTestApp({
      env: {
        APPROVAL_CHANNELS: 'telegram',
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        TELEGRAM_API_ROOT: tg.apiRoot,
      },
    });
    owner = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 1_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await tg.close();
  });

  it('with Telegram the only channel and no chat linked, a payout that needs approval is 503', async () => {
    const res = await withdraw(t.app, owner.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU });
    expectError(res, 503, 'APPROVAL_NOT_CONFIGURED');
    const ch = (await t.app.inject({ method: 'GET', url: '/v1/approval-channels', headers: bearer(owner.ownerToken) })).json();
    expect(ch.channels).toEqual([{ name: 'telegram', linked: false, linked_at: null, username: null, phone: null, state: null, problem: null }]);
  });

  it('links a chat with a one-time deep-link code', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(owner.ownerToken) });
    expect(res.statusCode).toBe(201);
    const { code, link, expires_in } = res.json();
    expect(link).toBe(`https://t.me/ars_wallet_test_bot?start=${code}`);
    expect(expires_in).toBe(900);
    expectError(await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(owner.agentToken) }), 403, 'OWNER_SESSION_REQUIRED');
    await start(code);
    const ch = (await t.app.inject({ method: 'GET', url: '/v1/approval-channels', headers: bearer(owner.ownerToken) })).json();
    expect(ch.channels[0]).toMatchObject({ name: 'telegram', linked: true, username: 'ana' });
    expect(lastSent().body.chat_id).toBe(String(CHAT));
    // The code is one-time.
    const other = await createOnboardedUser(t.app);
    await start(code, 555);
    expect((await t.app.inject({ method: 'GET', url: '/v1/approval-channels', headers: bearer(other.ownerToken) })).json().channels[0].linked).toBe(false);
    expect(String(lastSent().body.text)).toContain('no es válido');
  });

  it('a link code expires after 15 minutes', async () => {
    const u = await createOnboardedUser(t.app);
    const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(u.ownerToken) })).json();
    t.clock.advance(15 * 60 * 1000);
    await start(code, 888);
    expect(await t.app.ctx.store.db.selectFrom('telegram_links').select('user_id').where('user_id', '=', u.id).executeTakeFirst()).toBeUndefined();
    owner.agentToken = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: owner.apiKey } })).json().token;
  });

  it('only the newest link code links; linking another chat tells the chat that stops receiving approvals', async () => {
    const u = await createOnboardedUser(t.app);
    const newCode = async () => (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(u.ownerToken) })).json().code as string;
    const linkedChat = async () => (await t.app.ctx.store.db.selectFrom('telegram_links').select('chat_id').where('user_id', '=', u.id).executeTakeFirst())?.chat_id;
    // An earlier deep link (a screen share, a photo of the QR, the browser's history) is worth nothing once a newer one exists.
    const old = await newCode();
    const fresh = await newCode();
    await start(old, 901);
    expect(String(lastSent().body.text)).toContain('no es válido');
    expect(await linkedChat()).toBeUndefined();
    await start(fresh, 902);
    expect(await linkedChat()).toBe('902');
    // Linking another chat (a new phone, or someone who got hold of a code) moves the approvals; the chat that had
    // them is told, so the owner notices a link they did not make.
    await start(await newCode(), 903);
    expect(await linkedChat()).toBe('903');
    const toOld = tg.of('sendMessage').filter((c) => c.body.chat_id === '902').at(-1)!;
    expect(String(toOld.body.text)).toContain('Este chat ya no recibe las aprobaciones');
  });

  it('sends the approval with two buttons; Approve → submitted → confirmed; the message loses its buttons', async () => {
    const res = await withdraw(t.app, owner.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU, note: 'proveedor' });
    expect(res.statusCode).toBe(202);
    const { id, approval_id } = res.json();
    const msg = lastSent().body;
    expect(msg.chat_id).toBe(String(CHAT));
    const text = String(msg.text);
    expect(text).toContain('$ 60.000,00');
    expect(text).toContain(EXTERNAL_CBU);
    expect(text).toContain('(CBU)');
    expect(text).toContain('Titular cuenta 5201');
    expect(text).toContain('supera el monto que pide aprobación');
    expect(text).toContain('Agente: default');
    expect(text).toContain('Vence:');
    const buttons = (msg.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] }).inline_keyboard[0]!;
    expect(buttons.map((b) => b.callback_data)).toEqual([`a:${approval_id}`, `r:${approval_id}`]);
    for (const b of buttons) {
      expect(Buffer.byteLength(b.callback_data)).toBeLessThanOrEqual(64);
      expect(b.callback_data).not.toContain('60000');
    }

    expect((await press(`a:${approval_id}`)).statusCode).toBe(200);
    expect(tg.of('answerCallbackQuery').at(-1)!.body).toMatchObject({ text: 'Aprobado' });
    expect(await payoutStatus(owner, id)).toBe('submitted');
    const edit = tg.of('editMessageText').at(-1)!.body;
    expect(String(edit.text)).toContain('✅ Aprobado');
    expect(edit.reply_markup).toBeUndefined();
    await settle(t);
    expect(await payoutStatus(owner, id)).toBe('confirmed');
    const approval = (await t.app.inject({ method: 'GET', url: `/v1/approvals/${approval_id}`, headers: bearer(owner.ownerToken) })).json();
    expect(approval).toMatchObject({ status: 'approved', decided_via: 'telegram' });
  });

  it('Reject → rejected', async () => {
    const { id, approval_id } = (await withdraw(t.app, owner.agentToken, { amount_ars: 70_000, destination: EXTERNAL_CBU })).json();
    await press(`r:${approval_id}`);
    expect(await payoutStatus(owner, id)).toBe('rejected');
    expect(String(tg.of('editMessageText').at(-1)!.body.text)).toContain('❌ Rechazado');
  });

  it('a press from another chat, a forged secret, a replayed update, a press after expiry: nothing changes, each is answered', async () => {
    const { id, approval_id } = (await withdraw(t.app, owner.agentToken, { amount_ars: 80_000, destination: EXTERNAL_CBU })).json();
    const answered = tg.of('answerCallbackQuery').length;

    await press(`a:${approval_id}`, 999_999);
    expect(await payoutStatus(owner, id)).toBe('pending_approval');
    expect(tg.of('answerCallbackQuery').length).toBe(answered + 1);
    expect(tg.of('answerCallbackQuery').at(-1)!.body).toMatchObject({ text: 'No autorizado' });

    const forged = await t.app.inject({
      method: 'POST',
      url: '/v1/channels/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': 'wrong-secret-wrong-secret' },
      payload: { update_id: hook.nextId(), callback_query: { id: 'x', data: `a:${approval_id}`, message: { message_id: 1, chat: { id: CHAT } } } },
    });
    expectError(forged, 403, 'FORBIDDEN');
    expectError(await t.app.inject({ method: 'POST', url: '/v1/channels/telegram/webhook', payload: { update_id: 1 } }), 403, 'FORBIDDEN');
    expect(await payoutStatus(owner, id)).toBe('pending_approval');

    // Reject once, then Telegram redelivers the same update and someone presses Approve with a new one.
    const rejectId = hook.nextId();
    await press(`r:${approval_id}`, CHAT, rejectId);
    const events = await eventTypes(t.app, owner.id, id);
    await press(`r:${approval_id}`, CHAT, rejectId);
    expect(await eventTypes(t.app, owner.id, id)).toEqual(events);
    await press(`a:${approval_id}`);
    expect(tg.of('answerCallbackQuery').at(-1)!.body).toMatchObject({ text: 'Ya estaba decidido' });
    expect(await payoutStatus(owner, id)).toBe('rejected');

    const late = (await withdraw(t.app, owner.agentToken, { amount_ars: 90_000, destination: EXTERNAL_CBU })).json();
    t.clock.advance(300_000);
    await press(`a:${late.approval_id}`);
    expect(tg.of('answerCallbackQuery').at(-1)!.body).toMatchObject({ text: 'Vencido: ya no se puede decidir' });
    expect(await payoutStatus(owner, late.id)).toBe('expired');
    expect(String(tg.of('editMessageText').at(-1)!.body.text)).toContain('⌛ Vencido');
    owner.agentToken = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: owner.apiKey } })).json().token;
    owner.ownerToken = (await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: owner.email, password: 'correct horse battery' } })).json().token;
  });

  it('Telegram unreachable: the payout stays pending and the message is retried; nothing is approved by default', async () => {
    tg.setFailing(true);
    const { id, approval_id } = (await withdraw(t.app, owner.agentToken, { amount_ars: 61_000, destination: EXTERNAL_CBU })).json();
    expect(await payoutStatus(owner, id)).toBe('pending_approval');
    await t.app.jobs.approvalNotices!.runOnce();
    expect(await payoutStatus(owner, id)).toBe('pending_approval');
    tg.setFailing(false);
    t.clock.advance(16_000); // the retry time of an owed notice
    await t.app.jobs.approvalNotices!.runOnce();
    const sent = tg.of('sendMessage').filter((c) => String(c.body.text).includes('$ 61.000,00') && !String(c.body.text).startsWith('Solicitud'));
    expect(sent.length).toBeGreaterThanOrEqual(1);
    const okSends = await t.app.ctx.store.db.selectFrom('telegram_messages').select('message_id').where('approval_id', '=', approval_id).execute();
    expect(okSends).toHaveLength(1);
    await t.app.jobs.approvalNotices!.runOnce();
    expect(await t.app.ctx.store.db.selectFrom('telegram_messages').select('message_id').where('approval_id', '=', approval_id).execute()).toHaveLength(1);
    expect(await payoutStatus(owner, id)).toBe('pending_approval');
  });

  it("Telegram's flood control (429 retry_after): the notice waits as long as Telegram said, not 15 s", async () => {
    tg.setFloodWait(120);
    const { id } = (await withdraw(t.app, owner.agentToken, { amount_ars: 63_000, destination: EXTERNAL_CBU })).json();
    const sends = () => tg.of('sendMessage').filter((c) => String(c.body.text).includes('$ 63.000,00')).length;
    expect(sends()).toBe(1); // turned away
    tg.setFloodWait(0);
    t.clock.advance(16_000);
    await t.app.jobs.approvalNotices!.runOnce();
    expect(sends()).toBe(1); // not asked again before Telegram's two minutes
    t.clock.advance(105_000);
    await t.app.jobs.approvalNotices!.runOnce();
    expect(sends()).toBe(2);
    expect(await payoutStatus(owner, id)).toBe('pending_approval');

    // A wait longer than an hour is taken as an hour: the owner is asked again then.
    tg.setFloodWait(7_200);
    await withdraw(t.app, owner.agentToken, { amount_ars: 63_500, destination: EXTERNAL_CBU });
    const later = () => tg.of('sendMessage').filter((c) => String(c.body.text).includes('$ 63.500,00')).length;
    expect(later()).toBe(1);
    tg.setFloodWait(0);
    t.clock.advance(59 * 60_000);
    await t.app.jobs.approvalNotices!.runOnce();
    expect(later()).toBe(1);
    t.clock.advance(2 * 60_000);
    await t.app.jobs.approvalNotices!.runOnce();
    expect(later()).toBe(2);
  });

  it('a threshold-change proposal approved through Telegram changes only the proposed fields', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(owner.ownerToken) })).json();
    const { proposeThresholdChange } = await import('../thresholds/threshold-proposal.service.js');
    const p = await proposeThresholdChange(t.app.ctx, { userId: owner.id, kind: 'api_key', keyId: owner.apiKeyId, keyName: 'default' }, { daily_limit_ars: 800000 });
    const text = String(lastSent().body.text);
    expect(text).toContain('cambio de límites');
    expect(text).toContain('Límite diario: $ 500.000,00 → $ 800.000,00');
    await press(`a:${p.approval_id}`);
    const after = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(owner.ownerToken) })).json();
    expect(after).toEqual({ ...before, daily_limit_ars: 800000 });
    // The message, edited with the outcome, still says what changed, not "800.000 → 800.000".
    const edited = String(tg.of('editMessageText').at(-1)!.body.text);
    expect(edited).toContain('Límite diario: $ 500.000,00 → $ 800.000,00');
    expect(edited).toContain('✅ Aprobado');
  });

  it('a proposal that takes away the last trusted destination says the list is left empty, letting any destination through', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(owner.ownerToken) })).json();
    const put = await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(owner.ownerToken), payload: { ...before, whitelist_cbus: [EXTERNAL_CBU] } });
    expect(put.statusCode).toBe(204);
    const { proposeThresholdChange } = await import('../thresholds/threshold-proposal.service.js');
    const p = await proposeThresholdChange(t.app.ctx, { userId: owner.id, kind: 'api_key', keyId: owner.apiKeyId, keyName: 'default' }, { whitelist_cbus: [] });
    try {
      expect(String(lastSent().body.text)).toContain(`Destinos de confianza: quita ${EXTERNAL_CBU}; la lista queda vacía: cualquier destino vale`);
    } finally {
      // As they were, for the cases after this one.
      await press(`r:${p.approval_id}`);
      await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(owner.ownerToken), payload: before });
    }
  });

  it('a chat that blocked the bot (403) is shown undeliverable, not retried and no longer counts; unblocking restores it', async () => {
    const channel = async () => (await t.app.inject({ method: 'GET', url: '/v1/approval-channels', headers: bearer(owner.ownerToken) })).json().channels[0];
    const toChat = () => tg.of('sendMessage').filter((c) => c.body.chat_id === String(CHAT)).length;
    tg.setBlocked(CHAT, true);
    const res = await withdraw(t.app, owner.agentToken, { amount_ars: 62_000, destination: EXTERNAL_CBU });
    expect(res.statusCode).toBe(202);
    expect(await channel()).toMatchObject({ name: 'telegram', linked: true, state: 'undeliverable', problem: { code: 403, message: 'Forbidden: bot was blocked by the user' } });
    // Not retried until the approval expires.
    const tries = toChat();
    t.clock.advance(16_000);
    await t.app.jobs.approvalNotices!.runOnce();
    t.clock.advance(16_000);
    await t.app.jobs.approvalNotices!.runOnce();
    expect(toChat()).toBe(tries);
    // Telegram was the only channel: no channel reaches the owner now.
    expectError(await withdraw(t.app, owner.agentToken, { amount_ars: 62_500, destination: EXTERNAL_CBU }), 503, 'APPROVAL_NOT_CONFIGURED');

    // The owner unblocks the bot: Telegram says so, and the chat answers again.
    tg.setBlocked(CHAT, false);
    const unblocked = await post({ update_id: hook.nextId(), my_chat_member: { chat: { id: CHAT, type: 'private' }, from: { id: CHAT }, date: 0, old_chat_member: { status: 'kicked' }, new_chat_member: { status: 'member' } } });
    expect(unblocked.statusCode).toBe(200);
    expect(await channel()).toMatchObject({ state: 'active', problem: null });
    const again = await withdraw(t.app, owner.agentToken, { amount_ars: 62_600, destination: EXTERNAL_CBU });
    expect(again.statusCode).toBe(202);
    expect(String(lastSent().body.text)).toContain('$ 62.600,00');

    // Blocked again; the owner presses "Restart" in the bot (it sends /start): the chat answers again too.
    tg.setBlocked(CHAT, true);
    await withdraw(t.app, owner.agentToken, { amount_ars: 62_700, destination: EXTERNAL_CBU });
    expect((await channel()).state).toBe('undeliverable');
    tg.setBlocked(CHAT, false);
    await post({ update_id: hook.nextId(), message: { message_id: 2, chat: { id: CHAT, type: 'private' }, from: { id: CHAT, username: 'ana' }, text: '/start' } });
    expect(await channel()).toMatchObject({ state: 'active', problem: null });
    expect(String(lastSent().body.text)).toContain('sigue vinculado');

    // Linking again from the dashboard clears it as well.
    tg.setBlocked(CHAT, true);
    await withdraw(t.app, owner.agentToken, { amount_ars: 62_800, destination: EXTERNAL_CBU });
    expect((await channel()).state).toBe('undeliverable');
    tg.setBlocked(CHAT, false);
    const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(owner.ownerToken) })).json();
    await start(code);
    expect(await channel()).toMatchObject({ state: 'active', problem: null });
  });

  it('prunes update ids after a week and spent link codes, in batches', async () => {
    const db = t.app.ctx.store.db;
    const before = (await db.selectFrom('telegram_updates').select('update_id').execute()).length;
    expect(before).toBeGreaterThan(0);
    await t.app.jobs.telegramPrune!.runOnce();
    expect((await db.selectFrom('telegram_updates').select('update_id').execute()).length).toBe(before);
    t.clock.advance(8 * 24 * 3600 * 1000);
    await t.app.jobs.telegramPrune!.runOnce();
    expect(await db.selectFrom('telegram_updates').select('update_id').execute()).toEqual([]);
    expect(await db.selectFrom('telegram_link_codes').select('code').execute()).toEqual([]);
    owner.agentToken = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: owner.apiKey } })).json().token;
    owner.ownerToken = (await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: owner.email, password: 'correct horse battery' } })).json().token;
  });

  it('unlinks, and the activity log says so (as it says the link)', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/approval-channels/telegram', headers: bearer(owner.ownerToken) })).statusCode).toBe(204);
    expectError(await withdraw(t.app, owner.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU }), 503, 'APPROVAL_NOT_CONFIGURED');
    const activity = async () =>
      ((await t.app.inject({ method: 'GET', url: '/v1/activity?limit=100', headers: bearer(owner.ownerToken) })).json().entries as { action: string; actor: string }[]).filter(
        (e) => e.action.startsWith('telegram.'),
      );
    expect((await activity())[0]).toMatchObject({ action: 'telegram.unlinked', actor: 'owner' });
    // Unlinking again changes nothing and records nothing.
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/approval-channels/telegram', headers: bearer(owner.ownerToken) })).statusCode).toBe(204);
    expect((await activity()).filter((e) => e.action === 'telegram.unlinked')).toHaveLength(1);
  });
});
