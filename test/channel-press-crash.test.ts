import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankRail } from '../src/modules/rail/rail.port.js';
import { startFakeTelegram } from './fake-telegram.js';
import { buttonPress, signedDelivery, startFakeWhatsApp, textMessage } from './fake-whatsapp.js';
import { bearer, createOnboardedUser, EXTERNAL_CBU, setThresholds, startTestApp, withdraw, type OnboardedUser, type TestApp } from './helpers.js';

/**
 * The owner presses Aprobar in Telegram or WhatsApp and the node handling it dies before the decision commits (here:
 * while approving re-checks the destination at the rail, which never answers). Telegram and Meta deliver again what
 * was not answered with a 2xx; the redelivery must decide, not be dropped as "already handled": the press was recorded
 * as seen before the node died, but never handled.
 */

/** The rail stops answering destination look-ups while `hanging` is set: where the first node "dies". */
function hangingRail(state: { hanging: boolean; gate: Promise<void> }) {
  return (rail: BankRail): BankRail =>
    Object.assign(Object.create(rail) as BankRail, {
      resolve: async (...args: Parameters<BankRail['resolve']>) => {
        if (state.hanging) await state.gate;
        return rail.resolve(...args);
      },
    });
}

function deadNode() {
  let release!: () => void;
  const state = { hanging: false, gate: new Promise<void>((r) => (release = r)) };
  return { state, release: () => release() };
}

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const payoutStatus = async (t: TestApp, u: OnboardedUser, id: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status as string;

describe('Telegram: a press whose node died before deciding is decided on redelivery', () => {
  const TOKEN = '123456:PRESS-CRASH-token';
  const SECRET = 'tg-press-crash-secret-0123456789';
  const CHAT = 515151;
  const env = { APPROVAL_CHANNELS: 'dashboard,telegram', TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: SECRET };
  let tg: Awaited<ReturnType<typeof startFakeTelegram>>;
  beforeAll(async () => {
    tg = await startFakeTelegram(TOKEN);
  });
  afterAll(() => tg.close());

  it('the redelivered press approves once the dead node’s hold on it has lapsed; meanwhile it is answered 503', async () => {
    const dead = deadNode();
    const first = await startTestApp({ env: { ...env, TELEGRAM_API_ROOT: tg.apiRoot }, deps: { rail: hangingRail(dead.state) } });
    let second: TestApp | null = null;
    let pending: Promise<unknown> = Promise.resolve();
    try {
      const post = (t: TestApp, update: object) =>
        t.app.inject({ method: 'POST', url: '/v1/channels/telegram/webhook', headers: { 'x-telegram-bot-api-secret-token': SECRET }, payload: update });
      const u = await createOnboardedUser(first.app, { fundArs: 500_000 });
      await setThresholds(first.app, u.ownerToken, { per_tx_limit_ars: 100000, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 50000, whitelist_cbus: [] });
      const { code } = (await first.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(u.ownerToken) })).json();
      expect((await post(first, { update_id: 1, message: { message_id: 1, chat: { id: CHAT, type: 'private' }, from: { id: CHAT }, text: `/start ${code}` } })).statusCode).toBe(200);
      const { id, approval_id } = (await withdraw(first.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU })).json();
      const press = { update_id: 2, callback_query: { id: 'cb-crash', data: `a:${approval_id}`, from: { id: CHAT }, message: { message_id: 1, chat: { id: CHAT } } } };

      // The first node takes the press and dies while deciding: Telegram never got a 2xx for it.
      dead.state.hanging = true;
      pending = post(first, press);
      await until('the first node to take the update', async () =>
        !!(await first.app.ctx.store.db.selectFrom('telegram_updates').select('update_id').where('update_id', '=', 2).executeTakeFirst()),
      );

      // Another node (or the restarted one) gets Telegram's redelivery.
      second = await startTestApp({ store: first.store, env: { ...env, TELEGRAM_API_ROOT: tg.apiRoot } });
      second.clock.set(first.clock.now());
      // Still possibly being handled by the node that took it: not accepted, so that Telegram delivers it again.
      expect((await post(second, press)).statusCode).toBe(503);
      expect(await payoutStatus(second, u, id)).toBe('pending_approval');
      // Once that node's hold has lapsed, the redelivery is handled: the owner's approval counts.
      second.clock.advance(3 * 60_000);
      expect((await post(second, press)).statusCode).toBe(200);
      expect(await payoutStatus(second, u, id)).toMatch(/^(submitted|confirmed)$/);
      expect(tg.of('answerCallbackQuery').filter((c) => c.body.callback_query_id === 'cb-crash').map((c) => c.body.text)).toEqual(['Aprobado']);
      // Handled now: a later redelivery changes nothing and is accepted.
      expect((await post(second, press)).statusCode).toBe(200);
      const audit = await second.app.ctx.store.db.selectFrom('audit_log').select('action').where('user_id', '=', u.id).where('action', '=', 'approval.approve').execute();
      expect(audit).toHaveLength(1);
    } finally {
      dead.release();
      await pending.catch(() => undefined);
      await second?.close();
      await first.close();
    }
  });
});

describe('WhatsApp: a press whose node died before deciding is decided on redelivery', () => {
  const SECRET_WA = 'wa-press-crash-secret-0123456789';
  const NUMBER = '5491155558888';
  const PHONE_ID = '106540352242933';
  let wa: Awaited<ReturnType<typeof startFakeWhatsApp>>;
  beforeAll(async () => {
    wa = await startFakeWhatsApp(PHONE_ID);
  });
  afterAll(() => wa.close());

  it('the redelivered press approves once the dead node’s hold on it has lapsed; meanwhile it is answered 503', async () => {
    const env = {
      APPROVAL_CHANNELS: 'dashboard,whatsapp',
      WHATSAPP_TOKEN: 'EAAG-press-crash',
      WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
      WHATSAPP_APP_SECRET: SECRET_WA,
      WHATSAPP_VERIFY_TOKEN: 'wa-press-crash-verify-0123456789',
      WHATSAPP_TEMPLATE: 'aprobacion_pago:es_AR',
      WHATSAPP_API_ROOT: wa.apiRoot,
    };
    const dead = deadNode();
    const first = await startTestApp({ env, deps: { rail: hangingRail(dead.state) } });
    let second: TestApp | null = null;
    let pending: Promise<unknown> = Promise.resolve();
    try {
      const deliver = (t: TestApp, value: Record<string, unknown>) => {
        const { payload, signature } = signedDelivery(SECRET_WA, value);
        return t.app.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, payload });
      };
      const u = await createOnboardedUser(first.app, { fundArs: 500_000 });
      await setThresholds(first.app, u.ownerToken, { per_tx_limit_ars: 100000, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 50000, whitelist_cbus: [] });
      const { text } = (await first.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) })).json();
      expect((await deliver(first, textMessage(NUMBER, 'wamid.PC1', text))).statusCode).toBe(200);
      const { id, approval_id } = (await withdraw(first.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU })).json();
      const press = buttonPress(NUMBER, 'wamid.PC2', `a:${approval_id}`);

      dead.state.hanging = true;
      pending = deliver(first, press);
      await until('the first node to take the message', async () =>
        !!(await first.app.ctx.store.db.selectFrom('whatsapp_inbound').select('message_id').where('message_id', '=', 'wamid.PC2').executeTakeFirst()),
      );

      second = await startTestApp({ store: first.store, env });
      second.clock.set(first.clock.now());
      expect((await deliver(second, press)).statusCode).toBe(503);
      expect(await payoutStatus(second, u, id)).toBe('pending_approval');
      second.clock.advance(3 * 60_000);
      expect((await deliver(second, press)).statusCode).toBe(200);
      expect(await payoutStatus(second, u, id)).toMatch(/^(submitted|confirmed)$/);
      expect((await deliver(second, press)).statusCode).toBe(200);
      const audit = await second.app.ctx.store.db.selectFrom('audit_log').select('action').where('user_id', '=', u.id).where('action', '=', 'approval.approve').execute();
      expect(audit).toHaveLength(1);
    } finally {
      dead.release();
      await pending.catch(() => undefined);
      await second?.close();
      await first.close();
    }
  });
});
