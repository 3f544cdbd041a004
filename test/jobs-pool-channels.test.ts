import { describe, expect, it } from 'vitest';
import { startFakeTelegram, telegramWebhook } from './fake-telegram.js';
import { bearer, createOnboardedUser, EXTERNAL_CBU, startTestApp, withdraw } from './helpers.js';

const TOKEN = '123456:POOL-token';
const SECRET = 'tg-pool-webhook-secret-0123456789';
const CHAT = 777003;

/**
 * The background jobs run on a pool of their own (D42), so a flood of requests cannot starve them. The approval
 * channels read and write their own tables (the linked chat, the messages sent) when a job sends an owed notice:
 * on the jobs' pool too, or an agent's flood holding every request connection would keep the owner from hearing of
 * a payout that waits for them. PostgreSQL only: SQLite has one connection for everything.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("approval notices on the jobs' own pool (PostgreSQL)", () => {
  it('an owed Telegram notice is sent while every request connection is taken', async () => {
    const tg = await startFakeTelegram(TOKEN);
    const t = await startTestApp({
      env: {
        APPROVAL_CHANNELS: 'telegram',
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        TELEGRAM_API_ROOT: tg.apiRoot,
        DATABASE_POOL_MAX: '1',
        DATABASE_CHECKOUT_TIMEOUT_MS: '500',
      },
    });
    try {
      const hook = telegramWebhook(() => t.app, SECRET);
      const owner = await createOnboardedUser(t.app, { fundArs: 1_000_000 });
      const { code } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/telegram', headers: bearer(owner.ownerToken) })).json();
      await hook.start(code, CHAT);
      // Telegram is down when the payout asks for approval: its notice is owed.
      tg.setFailing(true);
      const res = await withdraw(t.app, owner.agentToken, { amount_ars: 70_000, destination: EXTERNAL_CBU });
      expect(res.statusCode).toBe(202);
      const approvalId = res.json().approval_id as string;
      tg.setFailing(false);
      t.clock.advance(16_000); // the retry time of an owed notice
      // The requests' only connection is held (a flood would hold all of them) while the notices job runs.
      await t.app.ctx.store.db.connection().execute(async (held) => {
        await held.selectNoFrom((eb) => eb.val(1).as('one')).execute();
        await t.app.jobs.approvalNotices!.runOnce();
      });
      const sent = await t.app.ctx.store.db.selectFrom('telegram_messages').select('message_id').where('approval_id', '=', approvalId).execute();
      expect(sent).toHaveLength(1);
    } finally {
      await t.close();
      await tg.close();
    }
  });
});
