import { Api } from 'grammy';
import type { Kysely } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../shared/clock.js';
import type { ApprovalChannel, ApprovalNotice, ChannelView } from '../approvals/channels/channel.port.js';
import { pendingText, resolvedText } from './telegram.messages.js';

/** callback_data carries only the verb and the opaque approval id (≤ 64 bytes), never the amount. */
export const callbackData = (verb: 'a' | 'r', approvalId: string): string => `${verb}:${approvalId}`;

/**
 * The Telegram adapter of the approval-channel port (D23), through grammy's Bot API client. A message that
 * cannot be sent throws, so the approval stays owed to this channel and is retried; it never approves anything.
 */
export class TelegramChannel implements ApprovalChannel {
  readonly name = 'telegram' as const;
  readonly api: Api;
  private username: string | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    opts: { botToken: string; apiRoot: string },
  ) {
    this.api = new Api(opts.botToken, { apiRoot: opts.apiRoot });
  }

  async botUsername(): Promise<string> {
    this.username ??= (await this.api.getMe()).username;
    return this.username;
  }

  /** `db` is the caller's: inside a payout's transaction on SQLite, the only connection. */
  async isAvailable(userId: string, db: Executor): Promise<boolean> {
    return !!(await db.selectFrom('telegram_links').select('user_id').where('user_id', '=', userId).executeTakeFirst());
  }

  async describe(userId: string, db: Executor): Promise<ChannelView> {
    const link = await db.selectFrom('telegram_links').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return {
      name: 'telegram',
      linked: !!link,
      linked_at: link?.linked_at ?? null,
      username: link?.username ?? null,
      phone: null,
      state: link ? 'active' : null,
      problem: null,
    };
  }

  async notifyPending(n: ApprovalNotice): Promise<void> {
    const link = await this.db.selectFrom('telegram_links').selectAll().where('user_id', '=', n.userId).executeTakeFirst();
    if (!link) throw new Error('no linked Telegram chat');
    const sent = await this.db
      .selectFrom('telegram_messages')
      .select('message_id')
      .where('approval_id', '=', n.id)
      .where('chat_id', '=', link.chat_id)
      .executeTakeFirst();
    if (sent) return;
    const msg = await this.api.sendMessage(link.chat_id, pendingText(n), {
      reply_markup: {
        inline_keyboard: [
          [
            { text: '✅ Aprobar', callback_data: callbackData('a', n.id) },
            { text: '❌ Rechazar', callback_data: callbackData('r', n.id) },
          ],
        ],
      },
    });
    await this.db
      .insertInto('telegram_messages')
      .values({ approval_id: n.id, chat_id: link.chat_id, message_id: msg.message_id, created_at: this.clock.now().toISOString() })
      .onConflict((oc) => oc.columns(['approval_id', 'chat_id']).doNothing())
      .execute();
  }

  /** Shows the outcome in place of the buttons. */
  async notifyResolved(n: ApprovalNotice): Promise<void> {
    const messages = await this.db.selectFrom('telegram_messages').selectAll().where('approval_id', '=', n.id).execute();
    for (const m of messages) {
      await this.api.editMessageText(m.chat_id, Number(m.message_id), resolvedText(n)).catch((e: unknown) => {
        // "message is not modified" on a repeated edit is fine; anything else is for the caller's log.
        if (!String((e as Error).message).includes('not modified')) throw e;
      });
    }
  }
}
