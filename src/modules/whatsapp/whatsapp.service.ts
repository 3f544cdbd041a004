import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { AppError, isAppError } from '../../shared/errors.js';
import { decideApproval, expireApprovalIfDue, getApproval } from '../approvals/approvals.service.js';
import { INBOUND_HOLD_MS, type ApprovalNotice } from '../approvals/channels/channel.port.js';
import { writeAudit } from '../audit/audit.service.js';
import { isTemplateError, isUndeliverable } from './graph-api.js';
import { answerText, BUTTON_PAYLOAD } from './whatsapp.messages.js';
import type { WhatsAppChannel } from './whatsapp.channel.js';

export const LINK_CODE_TTL_MS = 15 * 60 * 1000;
/**
 * Wrong link codes one number may send within a code's lifetime. The fifth is answered with "wait"; after it the
 * number's codes are neither read nor answered until its window ends, so a guesser cannot keep trying, while an
 * owner who mistyped has a few tries and can always get a fresh code from the dashboard.
 */
export const LINK_CODE_MAX_WRONG = 5;
/** The Cloud API retries a webhook for up to 7 days; a little more than that of ids recognises every repeat. */
const INBOUND_IDS_KEPT_MS = 8 * 24 * 3600 * 1000;
/** Unambiguous letters and digits (no 0/O, 1/I/L): the owner may type the code by hand. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_IN_TEXT = /\b([A-HJ-NP-Z2-9]{4})-([A-HJ-NP-Z2-9]{4})\b/i;

export function whatsappChannelOf(ctx: AppContext): WhatsAppChannel {
  const c = ctx.channels.find((x) => x.name === 'whatsapp');
  if (!c) throw new AppError('NOT_FOUND', 'The WhatsApp approval channel is not enabled on this server (APPROVAL_CHANNELS)');
  return c as WhatsAppChannel;
}

/**
 * A one-time code (`ABCD-2345`, about 40 bits, valid 15 minutes) and a wa.me link that opens a chat with the
 * business number with the code typed in: the owner sends it, and the message links the number it came from.
 */
export async function createLinkCode(ctx: AppContext, userId: string) {
  const channel = whatsappChannelOf(ctx);
  let number: string;
  try {
    number = await channel.number();
  } catch {
    throw new AppError('SERVICE_UNAVAILABLE', 'WhatsApp is not reachable right now; try again');
  }
  const now = ctx.clock.now();
  const pick = () => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  const code = `${pick()}-${pick()}`;
  const expires = new Date(now.getTime() + LINK_CODE_TTL_MS);
  await ctx.store.transaction(async (tx) => {
    // Only the newest code links: an owner has at most one code open to guessing, however often the screen asks.
    await tx.deleteFrom('whatsapp_link_codes').where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await tx
      .insertInto('whatsapp_link_codes')
      .values({ code, user_id: userId, created_at: now.toISOString(), expires_at: expires.toISOString(), used_at: null })
      .execute();
  });
  const text = `Vincular ${code}`;
  return { code, text, link: `https://wa.me/${number}?text=${encodeURIComponent(text)}`, expires_at: expires.toISOString(), expires_in: LINK_CODE_TTL_MS / 1000 };
}

export async function unlinkWhatsApp(ctx: AppContext, userId: string): Promise<void> {
  whatsappChannelOf(ctx);
  // The link goes with its activity entry or not at all (as Telegram's): a retry after a failed audit write would
  // find nothing to unlink and write none.
  await ctx.store.transaction(async (tx) => {
    const gone = await tx.deleteFrom('whatsapp_links').where('user_id', '=', userId).executeTakeFirst();
    if (Number(gone.numDeletedRows) > 0) await writeAudit(tx, ctx.clock, { userId, kind: 'owner' }, { action: 'whatsapp.unlinked' });
  });
}

/** GET verification: Meta sends `hub.mode=subscribe`, our verify token and a challenge to echo. */
export function verifySubscription(ctx: AppContext, q: Record<string, string | undefined>): string {
  whatsappChannelOf(ctx);
  if (q['hub.mode'] !== 'subscribe' || !sameSecret(ctx.config.whatsapp.verifyToken, q['hub.verify_token'] ?? '')) {
    throw new AppError('FORBIDDEN', 'Bad hub.mode or hub.verify_token');
  }
  return q['hub.challenge'] ?? '';
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`; anything else is 401. */
export function checkSignature(ctx: AppContext, raw: Buffer, header: string | undefined): void {
  const want = `sha256=${createHmac('sha256', ctx.config.whatsapp.appSecret).update(raw).digest('hex')}`;
  if (!header || !sameSecret(want, header)) throw new AppError('UNAUTHENTICATED', 'Bad or missing X-Hub-Signature-256');
}

function sameSecret(want: string, got: string): boolean {
  const a = Buffer.from(want);
  const b = Buffer.from(got);
  return a.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}

interface Inbound {
  id: string;
  from: string;
  type: string;
  text?: { body?: string };
  button?: { payload?: string; text?: string };
  interactive?: { type?: string; button_reply?: { id?: string; title?: string } };
}
interface Status {
  id: string;
  status: string;
  recipient_id?: string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
}
export interface WebhookBody {
  object?: string;
  entry?: { changes?: { field?: string; value?: { messages?: Inbound[]; statuses?: Status[] } }[] }[];
}

/**
 * One signed webhook delivery: messages (a link code, a button press) and status callbacks. Each inbound message
 * id is handled once, whatever order and however often the Cloud API delivers it; a message whose handling
 * failed is forgotten again so the redelivery can do it.
 */
export async function handleWebhook(ctx: AppContext, body: WebhookBody): Promise<void> {
  const channel = whatsappChannelOf(ctx);
  for (const entry of body.entry ?? []) {
    for (const change of entry.changes ?? []) {
      for (const m of change.value?.messages ?? []) {
        if (typeof m?.id !== 'string' || typeof m.from !== 'string') continue;
        if (!(await takeInbound(ctx, m.id))) continue; // a repeat
        try {
          await handleMessage(ctx, channel, m);
        } catch (e) {
          await ctx.store.db.deleteFrom('whatsapp_inbound').where('message_id', '=', m.id).where('handled_at', 'is', null).execute();
          throw e;
        }
        await ctx.store.db
          .updateTable('whatsapp_inbound')
          .set({ handled_at: ctx.clock.now().toISOString() })
          .where('message_id', '=', m.id)
          .execute()
          // Handled, and answered: if this mark is lost, a redelivery after the hold meets "already decided" or a spent code.
          .catch((err: unknown) => ctx.log.warn({ err, message: m.id }, 'WhatsApp message handled but not marked so'));
      }
      for (const s of change.value?.statuses ?? []) await handleStatus(ctx, channel, s);
    }
  }
}

/**
 * Takes an inbound message id for this node: new, or taken by a node that did not finish it within its hold (it died
 * while handling it). False for a repeat of a handled message; a message another node is handling (or died handling,
 * within the hold) is 503, so Meta delivers it again.
 */
async function takeInbound(ctx: AppContext, messageId: string): Promise<boolean> {
  const now = ctx.clock.now();
  const lapsed = new Date(now.getTime() - INBOUND_HOLD_MS).toISOString();
  const taken = await ctx.store.db
    .insertInto('whatsapp_inbound')
    .values({ message_id: messageId, received_at: now.toISOString(), handled_at: null })
    .onConflict((oc) =>
      oc
        .column('message_id')
        .doUpdateSet({ received_at: now.toISOString() })
        .where('whatsapp_inbound.handled_at', 'is', null)
        .where('whatsapp_inbound.received_at', '<=', lapsed),
    )
    .executeTakeFirst();
  if (Number(taken.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  const seen = await ctx.store.db.selectFrom('whatsapp_inbound').select('handled_at').where('message_id', '=', messageId).executeTakeFirst();
  if (seen && seen.handled_at !== null) return false;
  throw new AppError('SERVICE_UNAVAILABLE', 'This message is being handled; deliver it again later');
}

async function handleMessage(ctx: AppContext, channel: WhatsAppChannel, m: Inbound): Promise<void> {
  const reply = (text: string) =>
    channel.api.sendText(m.from, text, m.id).then(
      () => undefined,
      (err: unknown) => ctx.log.warn({ err }, 'WhatsApp answer not sent'),
    );
  const link = await ctx.store.db.selectFrom('whatsapp_links').selectAll().where('wa_id', '=', m.from).executeTakeFirst();
  // The owner wrote: the number answers again, whatever WhatsApp said about it before.
  if (link && link.state === 'undeliverable') await channel.markLink(link.user_id, link.wa_id, 'active', null);

  const payload = m.type === 'button' ? m.button?.payload : m.type === 'interactive' ? m.interactive?.button_reply?.id : undefined;
  if (payload !== undefined) {
    // The template's buttons get their payloads by position (Aprobar first). A template registered the other way
    // round would make "Rechazar" approve: the label the owner pressed must not say the opposite of the payload.
    const label = (m.button?.text ?? m.interactive?.button_reply?.title ?? '').trim().toLowerCase();
    if ((payload.startsWith('a:') && label.includes('rechaz')) || (payload.startsWith('r:') && label.includes('aprob'))) {
      ctx.log.error({ label, payload }, 'WhatsApp template buttons are in the wrong order (Aprobar must come first); the press decided nothing');
      return reply(answerText.swappedButtons);
    }
    return pressButton(ctx, m.from, payload, reply);
  }
  const code = m.type === 'text' ? CODE_IN_TEXT.exec(m.text?.body ?? '') : null;
  if (code) return linkNumber(ctx, m.from, `${code[1]!.toUpperCase()}-${code[2]!.toUpperCase()}`, reply);
  // Anything else from anyone is left unanswered: we do not chat.
}

async function linkNumber(ctx: AppContext, waId: string, code: string, reply: (t: string) => Promise<void>): Promise<void> {
  const at = ctx.clock.now();
  const now = at.toISOString();
  const windowStart = new Date(at.getTime() - LINK_CODE_TTL_MS).toISOString();
  const attempts = await ctx.store.db.selectFrom('whatsapp_link_attempts').selectAll().where('wa_id', '=', waId).executeTakeFirst();
  if (attempts && attempts.failures >= LINK_CODE_MAX_WRONG && attempts.window_started_at > windowStart) return; // told to wait already
  const row = await ctx.store.db.selectFrom('whatsapp_link_codes').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row || row.used_at || row.expires_at <= now) {
    const failures = await countWrongCode(ctx, waId, at);
    if (failures > LINK_CODE_MAX_WRONG) return;
    return reply(failures === LINK_CODE_MAX_WRONG ? answerText.tooManyCodes : answerText.badCode);
  }
  const linked = await ctx.store.transaction(async (tx) => {
    // The code is spent with the link it makes, or not at all.
    const used = await tx.updateTable('whatsapp_link_codes').set({ used_at: now }).where('code', '=', code).where('used_at', 'is', null).executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return false;
    // One number decides for one owner: linking it here unlinks it from anyone else, whose activity log says so
    // (their channel would otherwise vanish without a trace of why).
    const phone = `…${waId.slice(-4)}`;
    const displaced = await tx.deleteFrom('whatsapp_links').where('wa_id', '=', waId).where('user_id', '!=', row.user_id).returning('user_id').execute();
    for (const d of displaced) {
      await writeAudit(tx, ctx.clock, { userId: d.user_id, kind: 'owner' }, { action: 'whatsapp.unlinked', data: { phone, reason: 'linked_by_another_account' } });
    }
    const values = { wa_id: waId, linked_at: now, state: 'active' as const, error_code: null, error_text: null, error_at: null };
    await tx
      .insertInto('whatsapp_links')
      .values({ user_id: row.user_id, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
    await tx.deleteFrom('whatsapp_link_attempts').where('wa_id', '=', waId).execute();
    await writeAudit(tx, ctx.clock, { userId: row.user_id, kind: 'owner' }, { action: 'whatsapp.linked', data: { phone } });
    return true;
  });
  if (linked) await reply(answerText.linked);
}

/**
 * Counts one wrong code from `waId` in one statement (two nodes never lose a count): the first of a window opens
 * it, a later one within the window adds to it. Answers the count in the window, this one included.
 */
async function countWrongCode(ctx: AppContext, waId: string, at: Date): Promise<number> {
  const now = at.toISOString();
  const windowStart = new Date(at.getTime() - LINK_CODE_TTL_MS).toISOString();
  const expired = sql<boolean>`whatsapp_link_attempts.window_started_at <= ${windowStart}`;
  const r = await ctx.store.db
    .insertInto('whatsapp_link_attempts')
    .values({ wa_id: waId, failures: 1, window_started_at: now })
    .onConflict((oc) =>
      oc.column('wa_id').doUpdateSet({
        failures: sql<number>`case when ${expired} then 1 else whatsapp_link_attempts.failures + 1 end`,
        window_started_at: sql<string>`case when ${expired} then ${now} else whatsapp_link_attempts.window_started_at end`,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(r.failures);
}

/**
 * A press decides exactly as the dashboard does (decideApproval: paused, expired, already decided, the D28
 * re-checks), honoured only from the number linked by the approval's owner, and is answered with the outcome.
 */
async function pressButton(ctx: AppContext, waId: string, payload: string, reply: (t: string) => Promise<void>): Promise<void> {
  const m = BUTTON_PAYLOAD.exec(payload);
  if (!m) return reply(answerText.unknown);
  const approval = await ctx.store.db.selectFrom('approvals').select(['id', 'user_id', 'kind']).where('id', '=', m[2]!).executeTakeFirst();
  const link = approval ? await ctx.store.db.selectFrom('whatsapp_links').select('wa_id').where('user_id', '=', approval.user_id).executeTakeFirst() : undefined;
  if (!approval || !link || link.wa_id !== waId) {
    ctx.log.warn({ approval: m[2] }, 'WhatsApp press from a number that does not own the approval');
    return reply(answerText.notAllowed);
  }
  const owner = { userId: approval.user_id, kind: 'owner' as const };
  try {
    const decided = await decideApproval(ctx, owner, approval.id, m[1] === 'a' ? 'approve' : 'reject', 'whatsapp');
    const notice = noticeOfView(decided);
    await reply(decided.status === 'approved' ? answerText.approved(notice) : answerText.rejected(notice));
  } catch (e) {
    if (!isAppError(e)) throw e;
    if (e.code === 'APPROVAL_EXPIRED') {
      await expireApprovalIfDue(ctx, approval.id);
      await reply(answerText.expired);
    } else if (e.code === 'APPROVAL_ALREADY_DECIDED') {
      await reply(answerText.alreadyDecided((await getApproval(ctx, approval.user_id, approval.id)).status));
    } else if (e.code === 'PAYOUTS_PAUSED') await reply(answerText.paused);
    else if (e.code === 'PAYOUT_DENIED') await reply(answerText.denied((e.details?.reasons as string[]) ?? [], approval.kind));
    else await reply(answerText.failed);
  }
}

const noticeOfView = (v: Awaited<ReturnType<typeof getApproval>>): ApprovalNotice => ({
  id: v.id,
  userId: '',
  kind: v.kind,
  status: v.status as ApprovalNotice['status'],
  expiresAt: v.expires_at,
  apiKeyName: v.api_key_name,
  payout: v.payout
    ? {
        id: v.payout.id,
        amount: Math.round(v.payout.amount_ars * 100),
        destination: v.payout.destination,
        destinationKind: v.payout.destination_kind,
        recipientName: v.payout.recipient_name,
        reasons: v.payout.reasons,
        note: v.payout.note,
      }
    : undefined,
});

/**
 * Status callbacks (sent, delivered, read, failed) need no answer. A failure of one of our approval templates
 * says something about the link (the number stopped receiving, or the template was refused): recorded there,
 * for the number that is still linked, never for an older one.
 */
async function handleStatus(ctx: AppContext, channel: WhatsAppChannel, s: Status): Promise<void> {
  if (s?.status !== 'failed' || typeof s.id !== 'string') return;
  const err = s.errors?.[0];
  const code = Number(err?.code ?? 0);
  const state = isUndeliverable(code) ? 'undeliverable' : isTemplateError(code) ? 'template_error' : null;
  if (!state) return void ctx.log.warn({ code, status: s.id }, 'a WhatsApp message failed');
  const msg = await ctx.store.db.selectFrom('whatsapp_messages').selectAll().where('wamid', '=', s.id).executeTakeFirst();
  if (!msg) return;
  const link = await ctx.store.db.selectFrom('whatsapp_links').selectAll().where('user_id', '=', msg.user_id).executeTakeFirst();
  if (!link || link.wa_id !== msg.wa_id || link.linked_at > msg.created_at) return;
  const message = [err?.title, err?.message, err?.error_data?.details].filter((x, i, all) => x && all.indexOf(x) === i).join(': ');
  await channel.markLink(msg.user_id, msg.wa_id, state, { code, message: message || `error ${code}` });
}

/** Drops inbound ids past the redelivery window, spent link codes and ended wrong-code windows. Small tables: one statement each. */
export async function pruneWhatsApp(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now().getTime();
  const ids = await ctx.store.db
    .deleteFrom('whatsapp_inbound')
    .where('received_at', '<', new Date(now - INBOUND_IDS_KEPT_MS).toISOString())
    .executeTakeFirst();
  const codes = await ctx.store.db
    .deleteFrom('whatsapp_link_codes')
    .where('expires_at', '<', new Date(now - LINK_CODE_TTL_MS).toISOString())
    .executeTakeFirst();
  const attempts = await ctx.store.db
    .deleteFrom('whatsapp_link_attempts')
    .where('window_started_at', '<', new Date(now - LINK_CODE_TTL_MS).toISOString())
    .executeTakeFirst();
  return Number(ids.numDeletedRows) + Number(codes.numDeletedRows) + Number(attempts.numDeletedRows);
}
