import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { inRowsOf } from '../../db/database.js';
import { AppError, isAppError } from '../../shared/errors.js';
import { pruneInBatches } from '../../shared/jobs.js';
import { decideApproval, expireApprovalIfDue } from '../approvals/approvals.service.js';
import { writeAudit } from '../audit/audit.service.js';
import { INBOUND_HOLD_MS, type ChannelView } from '../approvals/channels/channel.port.js';
import { deniedOnApproveText } from '../approvals/channels/notice-text.js';
import type { TelegramChannel } from './telegram.channel.js';

export const LINK_CODE_TTL_MS = 15 * 60 * 1000;
/** Telegram redelivers an update for at most a day; a week of ids is plenty to recognise repeats. */
const UPDATE_IDS_KEPT_MS = 7 * 24 * 3600 * 1000;
const PRUNE_BATCH = 1000;

/** Drops update ids and link codes that can no longer matter, in bounded batches through their time indexes. */
export async function pruneTelegram(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now().getTime();
  const updatesBefore = new Date(now - UPDATE_IDS_KEPT_MS).toISOString();
  const codesBefore = new Date(now - LINK_CODE_TTL_MS).toISOString();
  const db = ctx.store.db;
  const updates = await pruneInBatches(PRUNE_BATCH, async (limit) =>
    Number(
      (
        await db
          .deleteFrom('telegram_updates')
          .where(inRowsOf(ctx.store, 'update_id', db.selectFrom('telegram_updates').select('update_id').where('received_at', '<', updatesBefore).orderBy('received_at').limit(limit)))
          .executeTakeFirst()
      ).numDeletedRows,
    ),
  );
  const codes = await pruneInBatches(PRUNE_BATCH, async (limit) =>
    Number(
      (
        await db
          .deleteFrom('telegram_link_codes')
          .where(inRowsOf(ctx.store, 'code', db.selectFrom('telegram_link_codes').select('code').where('expires_at', '<', codesBefore).orderBy('expires_at').limit(limit)))
          .executeTakeFirst()
      ).numDeletedRows,
    ),
  );
  return updates + codes;
}

export function telegramChannelOf(ctx: AppContext): TelegramChannel {
  const c = ctx.channels.find((x) => x.name === 'telegram');
  if (!c) throw new AppError('NOT_FOUND', 'The Telegram approval channel is not enabled on this server (APPROVAL_CHANNELS)');
  return c as TelegramChannel;
}

/** A one-time code and its deep link: the owner opens it, Telegram sends `/start <code>` from their chat. */
export async function createLinkCode(ctx: AppContext, userId: string) {
  const channel = telegramChannelOf(ctx);
  const now = ctx.clock.now();
  const code = randomBytes(12).toString('base64url');
  const expires = new Date(now.getTime() + LINK_CODE_TTL_MS);
  // First, so that Telegram unreachable leaves the owner's earlier link as it was.
  let username: string;
  try {
    username = await channel.botUsername();
  } catch {
    throw new AppError('SERVICE_UNAVAILABLE', 'Telegram is not reachable right now; try again');
  }
  // Only the newest code links (as on WhatsApp): an earlier deep link seen by someone else is worth nothing.
  await ctx.store.transaction(async (tx) => {
    await tx.deleteFrom('telegram_link_codes').where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await tx
      .insertInto('telegram_link_codes')
      .values({ code, user_id: userId, created_at: now.toISOString(), expires_at: expires.toISOString(), used_at: null })
      .execute();
  });
  return { code, link: `https://t.me/${username}?start=${code}`, expires_at: expires.toISOString(), expires_in: LINK_CODE_TTL_MS / 1000 };
}

/** Every configured channel and whether it reaches the owner (D23, D45); each linkable channel describes itself. */
export async function listChannels(ctx: AppContext, userId: string): Promise<ChannelView[]> {
  const out: ChannelView[] = [];
  for (const c of ctx.channels) {
    out.push(
      c.describe
        ? await c.describe(userId, ctx.store.db)
        : { name: c.name, linked: true, linked_at: null, username: null, phone: null, state: 'active', problem: null },
    );
  }
  return out;
}

/** The owner's unlink: no longer asked in that chat, and presses from it no longer count; logged with the change. */
export async function unlinkTelegram(ctx: AppContext, userId: string): Promise<void> {
  telegramChannelOf(ctx);
  await ctx.store.transaction(async (tx) => {
    const gone = await tx.deleteFrom('telegram_links').where('user_id', '=', userId).returning('chat_id').executeTakeFirst();
    if (gone) await writeAudit(tx, ctx.clock, { userId, kind: 'owner' }, { action: 'telegram.unlinked', data: { chat_id: gone.chat_id } });
  });
}

export function checkWebhookSecret(ctx: AppContext, got: string | undefined): void {
  const want = Buffer.from(ctx.config.telegram.webhookSecret);
  const have = Buffer.from(got ?? '');
  if (!want.length || want.length !== have.length || !timingSafeEqual(want, have)) {
    throw new AppError('FORBIDDEN', 'Bad X-Telegram-Bot-Api-Secret-Token');
  }
}

interface Update {
  update_id: number;
  message?: { chat: { id: number; type?: string }; from?: { username?: string }; text?: string };
  callback_query?: { id: string; data?: string; from?: { id: number }; message?: { chat: { id: number }; message_id: number } };
  /** The bot's membership in a chat changed: `kicked` when the user blocks it, `member` when they unblock it. */
  my_chat_member?: { chat: { id: number; type?: string }; new_chat_member?: { status?: string } };
}

/**
 * Handles one Bot API update: `/start <code>` links a chat; a button press decides an approval, honoured only
 * from the linked chat of that approval's owner. Every press is answered. An update id is handled once.
 */
export async function handleUpdate(ctx: AppContext, update: Update): Promise<void> {
  const channel = telegramChannelOf(ctx);
  const now = ctx.clock.now();
  const id = update.update_id;
  // Taken by this node: new, or taken by a node that did not finish it within its hold (it died while handling it).
  const lapsed = new Date(now.getTime() - INBOUND_HOLD_MS).toISOString();
  const taken = await ctx.store.db
    .insertInto('telegram_updates')
    .values({ update_id: id, received_at: now.toISOString(), handled_at: null })
    .onConflict((oc) =>
      oc
        .column('update_id')
        .doUpdateSet({ received_at: now.toISOString() })
        .where('telegram_updates.handled_at', 'is', null)
        .where('telegram_updates.received_at', '<=', lapsed),
    )
    .executeTakeFirst();
  if (Number(taken.numInsertedOrUpdatedRows ?? 0) === 0) {
    const seen = await ctx.store.db.selectFrom('telegram_updates').select('handled_at').where('update_id', '=', id).executeTakeFirst();
    if (seen && seen.handled_at !== null) return; // a redelivery of what was handled
    // Another node is handling it (or died doing so), or just failed it: not accepted, so Telegram delivers it again.
    throw new AppError('SERVICE_UNAVAILABLE', 'This update is being handled; deliver it again later');
  }
  try {
    await handleFreshUpdate(ctx, channel, update);
  } catch (e) {
    // Not handled (e.g. the store answered 503): forget the id so that Telegram's redelivery does it.
    await ctx.store.db.deleteFrom('telegram_updates').where('update_id', '=', id).where('handled_at', 'is', null).execute();
    throw e;
  }
  await ctx.store.db
    .updateTable('telegram_updates')
    .set({ handled_at: ctx.clock.now().toISOString() })
    .where('update_id', '=', id)
    .execute()
    // Handled, and answered: if this mark is lost, a redelivery after the hold meets "already decided" or a spent code.
    .catch((err: unknown) => ctx.log.warn({ err, update: id }, 'telegram update handled but not marked so'));
}

async function handleFreshUpdate(ctx: AppContext, channel: TelegramChannel, update: Update): Promise<void> {
  await restoreIfUndeliverable(ctx, channel, update);
  if (update.my_chat_member) return;
  if (update.message?.text?.startsWith('/start')) return linkChat(ctx, channel, update.message);
  const q = update.callback_query;
  if (!q) return;
  const answer = (text: string) => channel.api.answerCallbackQuery(q.id, { text }).catch((err: unknown) => ctx.log.warn({ err }, 'answerCallbackQuery failed'));
  const m = /^([ar]):(apr_[0-9a-z]+)$/.exec(q.data ?? '');
  const chatId = q.message?.chat.id;
  if (!m || chatId === undefined) return void (await answer('Botón no reconocido'));
  // Only the owner decides: in a private chat the one pressing is the chat itself; in a group (a link made before
  // groups were refused) anyone else could press.
  if (q.from?.id !== chatId) {
    ctx.log.warn({ chatId, approval: m[2] }, 'telegram press by someone other than the linked chat');
    return void (await answer('No autorizado'));
  }
  const approval = await ctx.store.db.selectFrom('approvals').select(['id', 'user_id', 'kind']).where('id', '=', m[2]!).executeTakeFirst();
  const link = approval
    ? await ctx.store.db.selectFrom('telegram_links').selectAll().where('user_id', '=', approval.user_id).executeTakeFirst()
    : undefined;
  if (!approval || !link || link.chat_id !== String(chatId)) {
    ctx.log.warn({ chatId, approval: m[2] }, 'telegram press from a chat that does not own the approval');
    return void (await answer('No autorizado'));
  }
  const owner = { userId: approval.user_id, kind: 'owner' as const };
  // Telegram keeps a press's spinner only for a few seconds and refuses a late answer, while approving may wait
  // for the bank (checking the destination, then sending the payout). Past `answerWithinMs` the press is answered
  // as under way; the message then shows the decision once made, and a reason the message cannot show (paused,
  // refused by the re-check, not completed) comes as a reply to it.
  let early = false;
  const timer = setTimeout(() => {
    early = true;
    void answer('Procesando… el mensaje va a mostrar el resultado');
  }, ctx.config.telegram.answerWithinMs);
  const tell = async (text: string, why?: boolean) => {
    if (!early) return void (await answer(text));
    if (!why) return;
    await channel.api
      .sendMessage(chatId, text, { reply_parameters: { message_id: q.message!.message_id, allow_sending_without_reply: true } })
      .catch((err: unknown) => ctx.log.warn({ err }, 'telegram reply after a slow decision failed'));
  };
  try {
    const decided = await decideApproval(ctx, owner, approval.id, m[1] === 'a' ? 'approve' : 'reject', 'telegram');
    clearTimeout(timer);
    await tell(decided.status === 'approved' ? 'Aprobado' : 'Rechazado');
  } catch (e) {
    clearTimeout(timer);
    if (!isAppError(e)) throw e;
    if (e.code === 'APPROVAL_EXPIRED') {
      await tell('Vencido: ya no se puede decidir');
      // Make sure the message says so even if the expiry job has not run yet.
      await expireApprovalIfDue(ctx, approval.id);
    } else if (e.code === 'APPROVAL_ALREADY_DECIDED') await tell('Ya estaba decidido');
    // Why, as WhatsApp's answers say it (a callback answer is at most 200 characters).
    else if (e.code === 'PAYOUTS_PAUSED') await tell('Pagos pausados: no se puede aprobar. Podés rechazar, o reanudar desde el panel.', true);
    // The re-check ended the request (D28): the message will read as rejected, so the owner who approved is told why.
    else if (e.code === 'PAYOUT_DENIED') await tell(deniedOnApproveText((e.details?.reasons as string[]) ?? [], approval.kind).slice(0, 200), true);
    else await tell('No se pudo completar: probá de nuevo en un momento', true);
  }
}

async function linkChat(ctx: AppContext, channel: TelegramChannel, msg: NonNullable<Update['message']>): Promise<void> {
  const code = msg.text!.split(/\s+/)[1] ?? '';
  const now = ctx.clock.now().toISOString();
  const row = await ctx.store.db.selectFrom('telegram_link_codes').selectAll().where('code', '=', code).executeTakeFirst();
  const chatId = String(msg.chat.id);
  if (msg.chat.type !== 'private') {
    // A group's members could all press the buttons; only the owner's own chat with the bot decides. The code
    // stays unspent for the deep link, which opens that private chat.
    await channel.api.sendMessage(chatId, 'Abrí el enlace del panel en un chat privado con el bot para vincularlo.').catch(() => {});
    return;
  }
  if (!row && code === '' && (await ctx.store.db.selectFrom('telegram_links').select('user_id').where('chat_id', '=', chatId).executeTakeFirst())) {
    // "Restart" after unblocking the bot sends a bare /start from a chat that is still linked.
    await channel.api.sendMessage(chatId, '✅ Este chat sigue vinculado: vas a recibir aquí las aprobaciones de pagos.').catch(() => {});
    return;
  }
  if (!row || row.used_at || row.expires_at <= now) {
    await channel.api.sendMessage(chatId, 'El código no es válido o venció. Generá uno nuevo desde el panel.').catch(() => {});
    return;
  }
  const linked = await ctx.store.transaction(async (tx): Promise<false | { before: string | null }> => {
    // The code is spent with the link it makes, or not at all (a failure leaves it for Telegram's redelivery).
    const used = await tx.updateTable('telegram_link_codes').set({ used_at: now }).where('code', '=', code).where('used_at', 'is', null).executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return false;
    const before = await tx.selectFrom('telegram_links').select('chat_id').where('user_id', '=', row.user_id).executeTakeFirst();
    const values = { chat_id: chatId, username: msg.from?.username ?? null, linked_at: now, state: 'active' as const, error_code: null, error_text: null, error_at: null };
    await tx
      .insertInto('telegram_links')
      .values({ user_id: row.user_id, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
    await writeAudit(tx, ctx.clock, { userId: row.user_id, kind: 'owner' }, { action: 'telegram.linked', data: { chat_id: chatId } });
    return { before: before?.chat_id ?? null };
  });
  if (!linked) return;
  await channel.api.sendMessage(chatId, '✅ Listo: vas a recibir aquí las aprobaciones de pagos.').catch(() => {});
  // The chat that had the approvals learns they moved: a link the owner did not make shows where they look.
  if (linked.before && linked.before !== chatId) {
    const moved = 'Este chat ya no recibe las aprobaciones de pagos: se vinculó otro chat. Si no fuiste vos, entrá al panel y revisá los canales.';
    await channel.api.sendMessage(linked.before, moved).catch(() => {});
  }
}

/**
 * The owner's chat reached us (a message, a press, or Telegram saying the bot was unblocked): a chat marked
 * undeliverable answers again, as a WhatsApp number does when its owner writes (D45). Approvals asked meanwhile
 * are not sent again; they wait on the dashboard.
 */
async function restoreIfUndeliverable(ctx: AppContext, channel: TelegramChannel, update: Update): Promise<void> {
  const member = update.my_chat_member;
  const chatId = update.message?.chat.id ?? update.callback_query?.from?.id ?? (member?.new_chat_member?.status === 'member' ? member.chat.id : undefined);
  if (chatId === undefined) return;
  const links = await ctx.store.db
    .selectFrom('telegram_links')
    .select(['user_id', 'chat_id'])
    .where('chat_id', '=', String(chatId))
    .where('state', '=', 'undeliverable')
    .execute();
  for (const l of links) await channel.markLink(l.user_id, l.chat_id, 'active', null);
}
