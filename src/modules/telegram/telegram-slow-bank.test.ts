import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, telegramWebhook } from '../../../test/fake-telegram.js';
import { bearer, createOnboardedUser, EXTERNAL_CBU, startTestApp, withdraw, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import type { BankRail } from '../rail/rail.port.js';

const TOKEN = '123456:TEST-token';
const SECRET = 'tg-webhook-secret-0123456789';
const CHAT = 777002;

/**
 * Telegram keeps a press's spinner a few seconds and refuses a late answer, while approving waits for the bank
 * (the destination checked, then the payout sent). A press the decision cannot answer in time is answered as under
 * way; the message shows the outcome, and a reason it cannot show comes as a reply.
 */
describe('Telegram: a press whose decision waits for a slow bank', () => {
  let tg: Awaited<ReturnType<typeof startFakeTelegram>>;
  let t: TestApp;
  let owner: OnboardedUser;
  const hook = telegramWebhook(() => t.app, SECRET, 5000);
  let bankDelayMs = 0;
  const slow = (rail: BankRail): BankRail =>
    Object.assign(Object.create(rail) as BankRail, {
      resolve: async (...args: Parameters<BankRail['resolve']>) => {
        await new Promise((r) => setTimeout(r, bankDelayMs));
        return rail.resolve(...args);
      },
    });
  const press = (data: string, messageId: number) => hook.press(data, CHAT, { messageId });
  const pending = async (amount: number) => {
    const res = await withdraw(t.app, owner.agentToken, { amount_ars: amount, destination: EXTERNAL_CBU });
    expect(res.statusCode).toBe(202);
    // The press names the message it was on; the handler replies to that one.
    return { ...(res.json() as { id: string; approval_id: string }), messageId: 4000 + amount / 1000 };
  };

  beforeAll(async () => {
    tg = await startFakeTelegram(TOKEN);
    t = await startTestApp({
      env: {
        APPROVAL_CHANNELS: 'telegram',
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        TELEGRAM_API_ROOT: tg.apiRoot,
        TELEGRAM_ANSWER_WITHIN_MS: '50',
      },
      deps: { rail: slow },
    });
    owner = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 1_000_000 });
    const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(owner.ownerToken) })).json();
    await hook.start(code, CHAT);
  });
  afterAll(async () => {
    await t.close();
    await tg.close();
  });

  it('answers "under way" in time, then the message shows the approval; nothing is answered twice', async () => {
    const p = await pending(60_000);
    bankDelayMs = 400;
    const answersBefore = tg.of('answerCallbackQuery').length;
    expect((await press(`a:${p.approval_id}`, p.messageId)).statusCode).toBe(200);
    bankDelayMs = 0;
    const answers = tg.of('answerCallbackQuery').slice(answersBefore);
    expect(answers.map((c) => c.body.text)).toEqual(['Procesando… el mensaje va a mostrar el resultado']);
    expect(String(tg.of('editMessageText').at(-1)!.body.text)).toContain('✅ Aprobado');
    const payout = (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${p.id}`, headers: bearer(owner.ownerToken) })).json();
    expect(payout.status).toBe('submitted');
    // No reply: the message says it all.
    expect(String(tg.of('sendMessage').at(-1)!.body.text)).not.toContain('Aprobado');
  });

  it('a refusal found after the early answer is told as a reply to the message (paused meanwhile)', async () => {
    const p = await pending(61_000);
    bankDelayMs = 400;
    const answersBefore = tg.of('answerCallbackQuery').length;
    const pressed = press(`a:${p.approval_id}`, p.messageId);
    await new Promise((r) => setTimeout(r, 150));
    expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(owner.ownerToken) })).statusCode).toBe(200);
    expect((await pressed).statusCode).toBe(200);
    bankDelayMs = 0;
    expect(tg.of('answerCallbackQuery').slice(answersBefore).map((c) => c.body.text)).toEqual(['Procesando… el mensaje va a mostrar el resultado']);
    const reply = tg.of('sendMessage').at(-1)!.body;
    expect(reply).toMatchObject({ chat_id: CHAT, reply_parameters: { message_id: p.messageId } });
    expect(String(reply.text)).toContain('Pagos pausados');
    const approval = (await t.app.inject({ method: 'GET', url: `/v1/approvals/${p.approval_id}`, headers: bearer(owner.ownerToken) })).json();
    expect(approval.status).toBe('pending');
    await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: bearer(owner.ownerToken) });
  });

  it('a decision within the wait is answered with its outcome, as before', async () => {
    const p = await pending(62_000);
    const answersBefore = tg.of('answerCallbackQuery').length;
    await press(`r:${p.approval_id}`, p.messageId);
    expect(tg.of('answerCallbackQuery').slice(answersBefore).map((c) => c.body.text)).toEqual(['Rechazado']);
  });
});
