import { Api, GrammyError } from 'grammy';
import type { Kysely } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../shared/clock.js';
import { ChannelBusy, type ApprovalChannel, type ApprovalNotice, type ChannelView } from '../approvals/channels/channel.port.js';
import { pendingText, resolvedText } from './telegram.messages.js';
import type { TelegramLinkState } from './telegram.tables.js';

/**
 * The message carries text an agent chose (its note): a link in it must stay a line of text, not become a preview
 * card of the page it names under the approval's buttons.
 */
const NO_PREVIEW = { is_disabled: true } as const;

/** callback_data carries only the verb and the opaque approval id (≤ 64 bytes), never the amount. */
export const callbackData = (verb: 'a' | 'r', approvalId: string): string => `${verb}:${approvalId}`;

/**
 * Telegram's answers that say the chat cannot receive from the bot at all, so retrying is pointless: 403 (the user
 * blocked the bot or was deactivated) and 400 "chat not found".
 */
export const isUndeliverable = (e: unknown): e is GrammyError =>
  e instanceof GrammyError && (e.error_code === 403 || (e.error_code === 400 && /chat not found/i.test(e.description)));

/** Telegram's 429 says how many seconds to wait (`retry_after`): the notice is owed until then, not retried sooner. */
const busyOr = (e: unknown): unknown =>
  e instanceof GrammyError && e.error_code === 429 && typeof e.parameters.retry_after === 'number'
    ? new ChannelBusy(`Telegram: ${e.description}`, e.parameters.retry_after * 1000, e)
    : e;

/**
 * The Telegram adapter of the approval-channel port (D23), through grammy's Bot API client. A message that
 * cannot be sent for a passing reason throws, so the approval stays owed to this channel and is retried; one
 * Telegram refuses for the chat (isUndeliverable) is recorded on the link, which then stops counting as a way
 * to reach the owner, as a WhatsApp number that cannot receive does (D45). It never approves anything.
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
    // grammy waits 500 s by default: a Telegram that stops answering would hold a send past the notices' lease
    // (another node then sends it again) and keep a connection per call; as long as a Graph call (graph-api.ts).
    this.api = new Api(opts.botToken, { apiRoot: opts.apiRoot, timeoutSeconds: 10 });
  }

  async botUsername(): Promise<string> {
    this.username ??= (await this.api.getMe()).username;
    return this.username;
  }

  /** `db` is the caller's: inside a payout's transaction on SQLite, the only connection. */
  async isAvailable(userId: string, db: Executor): Promise<boolean> {
    const link = await db.selectFrom('telegram_links').select('state').where('user_id', '=', userId).executeTakeFirst();
    return !!link && link.state !== 'undeliverable';
  }

  async describe(userId: string, db: Executor): Promise<ChannelView> {
    const link = await db.selectFrom('telegram_links').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return {
      name: 'telegram',
      linked: !!link,
      linked_at: link?.linked_at ?? null,
      username: link?.username ?? null,
      phone: null,
      state: link?.state ?? null,
      problem: link?.error_code != null ? { code: link.error_code, message: link.error_text ?? '', at: link.error_at ?? '' } : null,
    };
  }

  async notifyPending(n: ApprovalNotice): Promise<void> {
    const link = await this.db.selectFrom('telegram_links').selectAll().where('user_id', '=', n.userId).executeTakeFirst();
    if (!link) throw new Error('no linked Telegram chat');
    if (link.state === 'undeliverable') return; // nothing to send to; the dashboard says why
    const sent = await this.db
      .selectFrom('telegram_messages')
      .select('message_id')
      .where('approval_id', '=', n.id)
      .where('chat_id', '=', link.chat_id)
      .executeTakeFirst();
    if (sent) return;
    let msg: Awaited<ReturnType<Api['sendMessage']>>;
    try {
      msg = await this.api.sendMessage(link.chat_id, pendingText(n), {
        link_preview_options: NO_PREVIEW,
        reply_markup: {
          inline_keyboard: [
            [
              { text: '✅ Aprobar', callback_data: callbackData('a', n.id) },
              { text: '❌ Rechazar', callback_data: callbackData('r', n.id) },
            ],
          ],
        },
      });
    } catch (e) {
      // Not retried: the chat refuses the bot until the owner unblocks it (any update from the chat then) or links again.
      if (isUndeliverable(e)) return void (await this.markLink(n.userId, link.chat_id, 'undeliverable', { code: e.error_code, message: e.description }));
      throw busyOr(e);
    }
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
      await this.api.editMessageText(m.chat_id, Number(m.message_id), resolvedText(n), { link_preview_options: NO_PREVIEW }).catch((e: unknown) => {
        // "message is not modified" on a repeated edit is fine, and so is what no retry can change: the message is
        // gone, or Telegram refuses the chat (403: the bot blocked). Anything else is owed and retried.
        const message = String((e as Error).message);
        if (message.includes('not modified') || message.includes('message to edit not found') || isUndeliverable(e)) return;
        throw busyOr(e);
      });
    }
  }

  /** Records what Telegram said about the chat (only for the chat still linked). */
  async markLink(userId: string, chatId: string, state: TelegramLinkState, e: { code: number; message: string } | null): Promise<void> {
    await this.db
      .updateTable('telegram_links')
      .set({ state, error_code: e?.code ?? null, error_text: e?.message.slice(0, 500) ?? null, error_at: e ? this.clock.now().toISOString() : null })
      .where('user_id', '=', userId)
      .where('chat_id', '=', chatId)
      .execute();
  }
}
