import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../shared/clock.js';
import type { ApprovalChannel, ApprovalNotice, ChannelView } from '../approvals/channels/channel.port.js';
import type { ApprovalKind } from '../approvals/approvals.tables.js';
import { GraphApi, GraphApiError, isTemplateError, isUndeliverable } from './graph-api.js';
import type { WhatsAppLinkState } from './whatsapp.tables.js';
import { buttonPayload, maskPhone, templateParams } from './whatsapp.messages.js';

/**
 * The WhatsApp adapter of the approval-channel port (D45). A business may start a conversation only with an
 * approved template, so a pending approval goes out as the configured template with two quick-reply buttons
 * (Aprobar / Rechazar) whose payloads name the approval. A send that fails for a passing reason throws (the
 * approval stays owed to this channel and is retried); one the Cloud API refuses for the number or the
 * template is recorded on the link, where the dashboard shows it. Nothing here ever decides an approval.
 */
export class WhatsAppChannel implements ApprovalChannel {
  readonly name = 'whatsapp' as const;
  readonly api: GraphApi;
  private businessNumber: string | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly config: Config['whatsapp'],
  ) {
    this.api = new GraphApi(config);
  }

  /** The business number the owner writes to (for the wa.me link), read once from the Cloud API. */
  async number(): Promise<string> {
    this.businessNumber ??= await this.api.displayNumber();
    return this.businessNumber;
  }

  /**
   * D45: the approval template speaks of a payment ("Un pago de {{1}} a {{2}}…"), so an agent's proposal of limits
   * goes out only with a template of its own (WHATSAPP_LIMITS_TEMPLATE); without one, it is asked elsewhere.
   */
  handles(kind: ApprovalKind): boolean {
    return kind === 'payout' || this.config.limitsTemplate !== null;
  }

  /** A number WhatsApp cannot deliver to does not count: approvals then go to the other channels. */
  async isAvailable(userId: string, db: Executor): Promise<boolean> {
    const link = await db.selectFrom('whatsapp_links').select('state').where('user_id', '=', userId).executeTakeFirst();
    return !!link && link.state !== 'undeliverable';
  }

  async describe(userId: string, db: Executor): Promise<ChannelView> {
    const link = await db.selectFrom('whatsapp_links').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return {
      name: 'whatsapp',
      linked: !!link,
      linked_at: link?.linked_at ?? null,
      username: null,
      phone: link ? maskPhone(link.wa_id) : null,
      state: link?.state ?? null,
      problem: link?.error_code != null ? { code: link.error_code, message: link.error_text ?? '', at: link.error_at ?? '' } : null,
    };
  }

  async notifyPending(n: ApprovalNotice): Promise<void> {
    const link = await this.db.selectFrom('whatsapp_links').selectAll().where('user_id', '=', n.userId).executeTakeFirst();
    if (!link || link.state === 'undeliverable') return; // nothing to send to; the dashboard says why
    const sent = await this.db
      .selectFrom('whatsapp_messages')
      .select('wamid')
      .where('approval_id', '=', n.id)
      .where('wa_id', '=', link.wa_id)
      .executeTakeFirst();
    if (sent) return;
    const template = n.thresholdChange ? this.config.limitsTemplate : this.config.template;
    if (!template) return; // not asked here (handles), whatever an older approval listed
    let wamid: string;
    try {
      wamid = await this.api.sendTemplate({
        to: link.wa_id,
        name: template.name,
        language: template.language,
        body: templateParams(n),
        buttons: [buttonPayload('a', n.id), buttonPayload('r', n.id)],
      });
    } catch (e) {
      if (e instanceof GraphApiError && isUndeliverable(e.code)) return void (await this.markLink(n.userId, link.wa_id, 'undeliverable', e));
      // The link shows the approval template's state: a refused limits template (an operator's setting) is logged
      // and retried, and does not make payouts look unreachable there.
      if (e instanceof GraphApiError && isTemplateError(e.code) && !n.thresholdChange) await this.markLink(n.userId, link.wa_id, 'template_error', e);
      throw e;
    }
    await this.db
      .insertInto('whatsapp_messages')
      .values({ wamid, approval_id: n.id, user_id: n.userId, wa_id: link.wa_id, created_at: this.clock.now().toISOString() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    if (link.state !== 'active' && !n.thresholdChange) await this.markLink(n.userId, link.wa_id, 'active', null);
  }

  /**
   * Nothing: a sent WhatsApp message cannot be edited, and a free-form message outside the 24 hours after the
   * owner last wrote is refused. A button press is answered with its outcome instead (whatsapp.service).
   */
  async notifyResolved(): Promise<void> {}

  /** Records what the Cloud API said about the number (only for the number still linked). */
  async markLink(userId: string, waId: string, state: WhatsAppLinkState, e: GraphApiError | { code: number; message: string } | null): Promise<void> {
    await this.db
      .updateTable('whatsapp_links')
      .set({ state, error_code: e?.code ?? null, error_text: e?.message.slice(0, 500) ?? null, error_at: e ? this.clock.now().toISOString() : null })
      .where('user_id', '=', userId)
      .where('wa_id', '=', waId)
      .execute();
  }
}
