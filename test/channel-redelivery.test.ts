import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base } from './failover-kit.js';
import { startFakeTelegram } from './fake-telegram.js';
import { buttonPress, signedDelivery, startFakeWhatsApp, textMessage } from './fake-whatsapp.js';
import { bearer, createOnboardedUser, EXTERNAL_CBU, setThresholds, startTestApp, withdraw, type OnboardedUser, type TestApp } from './helpers.js';

/**
 * A press whose handling failed for the store (D42: 503, nothing kept) must count when Telegram delivers the
 * update again, as WhatsApp's webhook does: "every press is answered", and the owner's decision is not lost.
 * Needs PostgreSQL to hold the owner's per-user lock from outside.
 */
const TOKEN = '123456:REDELIVERY-token';
const SECRET = 'tg-redelivery-secret-0123456789';
const CHAT = 313131;

describe.skipIf(!base)('Telegram: an update whose handling failed is handled on redelivery', () => {
  let tg: Awaited<ReturnType<typeof startFakeTelegram>>;
  let t: TestApp;
  let u: OnboardedUser;

  const post = (update: object) =>
    t.app.inject({ method: 'POST', url: '/v1/channels/telegram/webhook', headers: { 'x-telegram-bot-api-secret-token': SECRET }, payload: update });

  beforeAll(async () => {
    tg = await startFakeTelegram(TOKEN);
    t = await startTestApp({ env: { APPROVAL_CHANNELS: 'dashboard,telegram', TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: SECRET, TELEGRAM_API_ROOT: tg.apiRoot } });
    u = await createOnboardedUser(t.app, { fundArs: 500_000 });
    await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 100000, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 50000, whitelist_cbus: [] });
    const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(u.ownerToken) })).json();
    await post({ update_id: 1, message: { message_id: 1, chat: { id: CHAT, type: 'private' }, from: { id: CHAT }, text: `/start ${code}` } });
  });
  afterAll(async () => {
    await t.close();
    await tg.close();
  });

  it('a press that met a held lock (503) decides when Telegram redelivers it', async () => {
    const { id, approval_id } = (await withdraw(t.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU })).json();
    const update = { update_id: 2, callback_query: { id: 'cb2', data: `r:${approval_id}`, from: { id: CHAT }, message: { message_id: 1, chat: { id: CHAT } } } };
    // Something else holds the owner's per-user lock past the safety wait (D35): the press fails with 503.
    const holder = new pg.Client({ connectionString: t.store.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from wallets where user_id = $1 for update', [u.id]);
      const first = await post(update);
      expect(first.statusCode).toBe(503);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    // Telegram redelivers an update its webhook did not accept.
    expect((await post(update)).statusCode).toBe(200);
    const status = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status;
    expect(status).toBe('rejected');
    expect(tg.of('answerCallbackQuery').some((c) => c.body.callback_query_id === 'cb2')).toBe(true);
  }, 60_000);

  it('a /start that met a held lock (503) links when Telegram redelivers it: the code is not spent without its link', async () => {
    const other = await createOnboardedUser(t.app);
    const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(other.ownerToken) })).json();
    const update = { update_id: 3, message: { message_id: 3, chat: { id: 424242, type: 'private' }, from: { id: 424242 }, text: `/start ${code}` } };
    const holder = new pg.Client({ connectionString: t.store.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table telegram_links in exclusive mode');
      expect((await post(update)).statusCode).toBe(503);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    expect((await post(update)).statusCode).toBe(200);
    const link = await t.app.ctx.store.db.selectFrom('telegram_links').select('chat_id').where('user_id', '=', other.id).executeTakeFirst();
    expect(link).toEqual({ chat_id: '424242' });
  }, 60_000);
});

describe.skipIf(!base)('WhatsApp: a message whose handling failed is handled on redelivery', () => {
  const SECRET_WA = 'wa-redelivery-secret-0123456789';
  const NUMBER = '5491155557777';
  let wa: Awaited<ReturnType<typeof startFakeWhatsApp>>;
  let t: TestApp;
  let u: OnboardedUser;
  const deliver = (value: Record<string, unknown>) => {
    const { payload, signature } = signedDelivery(SECRET_WA, value);
    return t.app.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, payload });
  };

  beforeAll(async () => {
    wa = await startFakeWhatsApp('106540352242922');
    t = await startTestApp({
      env: {
        APPROVAL_CHANNELS: 'dashboard,whatsapp',
        WHATSAPP_TOKEN: 'EAAG-redelivery',
        WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
        WHATSAPP_APP_SECRET: SECRET_WA,
        WHATSAPP_VERIFY_TOKEN: 'wa-redelivery-verify-0123456789',
        WHATSAPP_TEMPLATE: 'aprobacion_pago:es_AR',
        WHATSAPP_API_ROOT: wa.apiRoot,
      },
    });
    u = await createOnboardedUser(t.app, { fundArs: 500_000 });
    await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 100000, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 50000, whitelist_cbus: [] });
    const { text } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) })).json();
    await deliver(textMessage(NUMBER, 'wamid.RD1', text));
  });
  afterAll(async () => {
    await t.close();
    await wa.close();
  });

  it('a press that met a held lock (503) decides when Meta redelivers it', async () => {
    const { id, approval_id } = (await withdraw(t.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU })).json();
    const holder = new pg.Client({ connectionString: t.store.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from wallets where user_id = $1 for update', [u.id]);
      expect((await deliver(buttonPress(NUMBER, 'wamid.RD2', `r:${approval_id}`))).statusCode).toBe(503);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    expect((await deliver(buttonPress(NUMBER, 'wamid.RD2', `r:${approval_id}`))).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status).toBe('rejected');
  }, 60_000);
});
