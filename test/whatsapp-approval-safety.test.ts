import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttonPress, signedDelivery, startFakeWhatsApp, textMessage } from './fake-whatsapp.js';
import {
  bearer,
  createOnboardedUser,
  eventTypes,
  EXTERNAL_CBU,
  PASSWORD,
  setThresholds,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from './helpers.js';
import { createHmac } from 'node:crypto';

/**
 * An adversarial pass over the WhatsApp approval channel (D45), through the signed webhook and the fake Graph API:
 * only the owner's linked number decides, once, before expiry, never while paused, and the template shows what
 * is decided.
 */
const PHONE_ID = '106540352242922';
const SECRET = 'wa-adv-app-secret-0123456789';
const ANA = '5491155550001';
const BOB = '5491155550002';

describe('WhatsApp approvals, adversarial', () => {
  let wa: Awaited<ReturnType<typeof startFakeWhatsApp>>;
  let t: TestApp;
  let ana: OnboardedUser;
  let bob: OnboardedUser;
  let msgId = 0;

  const raw = (payload: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', headers: { 'content-type': 'application/json', ...headers }, payload });
  const deliver = (value: Record<string, unknown>) => {
    const { payload, signature } = signedDelivery(SECRET, value);
    return raw(payload, { 'x-hub-signature-256': signature });
  };
  const press = (payload: string, from: string, id = `wamid.ADV${++msgId}`) => deliver(buttonPress(from, id, payload));
  const statusOf = async (u: OnboardedUser, id: string) =>
    (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(u.ownerToken) })).json().status;
  const lastText = () => String((wa.texts().at(-1)!.body.text as { body: string }).body);
  const link = async (u: OnboardedUser, from: string) => {
    const { text } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) })).json();
    await deliver(textMessage(from, `wamid.ADV${++msgId}`, text));
  };
  const linkedNumber = async (u: OnboardedUser) =>
    (await t.app.ctx.store.db.selectFrom('whatsapp_links').select('wa_id').where('user_id', '=', u.id).executeTakeFirst())?.wa_id;
  const refresh = async (u: OnboardedUser) => {
    u.agentToken = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: u.apiKey } })).json().token;
    u.ownerToken = (await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: u.email, password: PASSWORD } })).json().token;
  };
  const noLimits = { per_tx_limit_ars: 100000, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 50000, whitelist_cbus: [] };

  beforeAll(async () => {
    wa = await startFakeWhatsApp(PHONE_ID);
    t = await startTestApp({
      env: {
        APPROVAL_CHANNELS: 'dashboard,whatsapp',
        WHATSAPP_TOKEN: 'EAAG-adv-token',
        WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
        WHATSAPP_APP_SECRET: SECRET,
        WHATSAPP_VERIFY_TOKEN: 'wa-adv-verify-token-0123456789',
        WHATSAPP_TEMPLATE: 'aprobacion_pago:es_AR',
        WHATSAPP_LIMITS_TEMPLATE: 'cambio_limites:es_AR',
        WHATSAPP_API_ROOT: wa.apiRoot,
      },
    });
    ana = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 2_000_000 });
    bob = await createOnboardedUser(t.app, { name: 'Bob', fundArs: 2_000_000 });
    await setThresholds(t.app, ana.ownerToken, noLimits);
    await setThresholds(t.app, bob.ownerToken, noLimits);
    await link(ana, ANA);
    await link(bob, BOB);
    expect(await linkedNumber(ana)).toBe(ANA);
    expect(await linkedNumber(bob)).toBe(BOB);
  });
  afterAll(async () => {
    await t.close();
    await wa.close();
  });

  it('signatures: sha1 only, uppercase prefix, a signature of another body, the secret as the signature: 401 and nothing spent', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU })).json();
    const mid = `wamid.ADV${++msgId}`;
    const { payload, signature } = signedDelivery(SECRET, buttonPress(ANA, mid, `a:${approval_id}`));
    const other = signedDelivery(SECRET, buttonPress(ANA, `wamid.ADV${++msgId}`, `r:${approval_id}`));
    const sha1 = `sha1=${createHmac('sha1', SECRET).update(payload).digest('hex')}`;
    for (const headers of <Record<string, string>[]>[
      { 'x-hub-signature': sha1 },
      { 'x-hub-signature-256': signature.replace('sha256=', 'SHA256=') },
      { 'x-hub-signature-256': signature.slice('sha256='.length) },
      { 'x-hub-signature-256': other.signature },
      { 'x-hub-signature-256': `sha256=${SECRET}` },
      { 'x-hub-signature-256': `${signature},${signature}` },
    ]) {
      expect((await raw(payload, headers)).statusCode).toBe(401);
    }
    expect(await statusOf(ana, id)).toBe('pending_approval');
    // The forged attempts did not spend the message id: Meta's real delivery still counts.
    expect((await raw(payload, { 'x-hub-signature-256': signature })).statusCode).toBe(200);
    expect(await statusOf(ana, id)).toBe('submitted');
  });

  it('a template registered with its buttons the other way round: pressing "Rechazar" never approves', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 60_300, destination: EXTERNAL_CBU })).json();
    // Payloads go by position: the first button carries a:, here labelled Rechazar.
    expect((await deliver(buttonPress(ANA, `wamid.ADV${++msgId}`, `a:${approval_id}`, 'wamid.FAKE1', 'Rechazar'))).statusCode).toBe(200);
    expect(await statusOf(ana, id)).toBe('pending_approval');
    expect(lastText()).toContain('no se decidió nada');
    expect((await deliver(buttonPress(ANA, `wamid.ADV${++msgId}`, `r:${approval_id}`, 'wamid.FAKE1', '✅ Aprobar'))).statusCode).toBe(200);
    expect(await statusOf(ana, id)).toBe('pending_approval');
    // Labels of its own that say neither are the operator's choice: the payload decides.
    expect((await deliver(buttonPress(ANA, `wamid.ADV${++msgId}`, `r:${approval_id}`, 'wamid.FAKE1', 'No'))).statusCode).toBe(200);
    expect(await statusOf(ana, id)).toBe('rejected');
  });

  it('a delivery with no body, or of another type, is refused (never 200), not a server error', async () => {
    const empty = `sha256=${createHmac('sha256', SECRET).update('').digest('hex')}`;
    for (const headers of <Record<string, string>[]>[{}, { 'x-hub-signature-256': 'sha256=00' }]) {
      for (const type of ['application/json', 'text/plain']) {
        const res = await t.app.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', headers: { 'content-type': type, ...headers } });
        expect(res.statusCode, `${type} ${JSON.stringify(headers)}: ${res.body}`).toBeLessThan(500);
        expect(res.statusCode).not.toBe(200);
      }
    }
    // Signed but empty: nothing to read, said as such.
    const signedEmpty = await t.app.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', headers: { 'content-type': 'application/json', 'x-hub-signature-256': empty } });
    expect(signedEmpty.statusCode, signedEmpty.body).toBe(400);
  });

  it('a signed delivery with a charset in its content type is still read', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 60_500, destination: EXTERNAL_CBU })).json();
    const { payload, signature } = signedDelivery(SECRET, buttonPress(ANA, `wamid.ADV${++msgId}`, `r:${approval_id}`));
    expect((await raw(payload, { 'content-type': 'application/json; charset=utf-8', 'x-hub-signature-256': signature })).statusCode).toBe(200);
    expect(await statusOf(ana, id)).toBe('rejected');
  });

  it("another owner's linked number, or an unlinked one, pressing this owner's approval changes nothing", async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 61_000, destination: EXTERNAL_CBU })).json();
    const events = await eventTypes(t.app, ana.id, id);
    for (const [payload, from] of [[`a:${approval_id}`, BOB], [`r:${approval_id}`, BOB], [`a:${approval_id}`, '5491100000000'], ['a:apr_nope', ANA]] as const) {
      await press(payload, from);
      expect(lastText()).toContain('no puede decidir');
    }
    await press(`a:${approval_id}:x`, ANA);
    expect(lastText()).toContain('No reconocimos');
    expect(await statusOf(ana, id)).toBe('pending_approval');
    expect(await eventTypes(t.app, ana.id, id)).toEqual(events);
  });

  it('approve and reject at once (in one delivery and in parallel deliveries): exactly one decision', async () => {
    const one = (await withdraw(t.app, ana.agentToken, { amount_ars: 62_000, destination: EXTERNAL_CBU })).json();
    const a = buttonPress(ANA, `wamid.ADV${++msgId}`, `a:${one.approval_id}`);
    const r = buttonPress(ANA, `wamid.ADV${++msgId}`, `r:${one.approval_id}`);
    expect((await deliver({ ...a, messages: [...a.messages, ...r.messages] })).statusCode).toBe(200);
    const decided1 = (await eventTypes(t.app, ana.id, one.id)).filter((e) => e === 'payout.approved' || e === 'payout.rejected');
    expect(decided1).toEqual(['payout.approved']);
    for (let i = 0; i < 3; i++) {
      const p = (await withdraw(t.app, ana.agentToken, { amount_ars: 62_100 + i, destination: EXTERNAL_CBU })).json();
      const res = await Promise.all([press(`a:${p.approval_id}`, ANA), press(`r:${p.approval_id}`, ANA), press(`a:${p.approval_id}`, ANA)]);
      expect(res.map((x) => x.statusCode)).toEqual([200, 200, 200]);
      const decided = (await eventTypes(t.app, ana.id, p.id)).filter((e) => e === 'payout.approved' || e === 'payout.rejected');
      expect(decided).toHaveLength(1);
    }
  });

  it('after unlinking and linking a new number, the old number cannot decide', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 63_000, destination: EXTERNAL_CBU })).json();
    const NEW = '5491155550009';
    await link(ana, NEW);
    expect(await linkedNumber(ana)).toBe(NEW);
    await press(`a:${approval_id}`, ANA);
    expect(lastText()).toContain('no puede decidir');
    expect(await statusOf(ana, id)).toBe('pending_approval');
    await press(`r:${approval_id}`, NEW);
    expect(await statusOf(ana, id)).toBe('rejected');
    await link(ana, ANA);
  });

  it("a number linked by another account leaves the first owner's channel, and the first owner's activity log says so", async () => {
    const first = await createOnboardedUser(t.app);
    const second = await createOnboardedUser(t.app);
    const PHONE = '5491177770033';
    await link(first, PHONE);
    await link(second, PHONE);
    expect(await linkedNumber(first)).toBeUndefined();
    expect(await linkedNumber(second)).toBe(PHONE);
    const entries = (await t.app.inject({ method: 'GET', url: '/v1/activity?limit=100', headers: bearer(first.ownerToken) })).json().entries as {
      action: string;
      data: Record<string, unknown>;
    }[];
    expect(entries.filter((e) => e.action.startsWith('whatsapp.'))[0]).toMatchObject({
      action: 'whatsapp.unlinked',
      data: { phone: '…0033', reason: 'linked_by_another_account' },
    });
  });

  it('one code sent from two numbers at once links exactly one; a second delivery of the linking message changes nothing', async () => {
    const u = await createOnboardedUser(t.app);
    const { text } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) })).json();
    const m1 = textMessage('5491177770001', `wamid.ADV${++msgId}`, text);
    const m2 = textMessage('5491177770002', `wamid.ADV${++msgId}`, text);
    await Promise.all([deliver(m1), deliver(m2)]);
    const first = await linkedNumber(u);
    expect(['5491177770001', '5491177770002']).toContain(first);
    await deliver(m1);
    await deliver(m2);
    expect(await linkedNumber(u)).toBe(first);
    expect(await linkedNumber(ana)).toBe(ANA);
  });

  it('a press replayed after the dedupe window (ids pruned) decides nothing again', async () => {
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 64_000, destination: EXTERNAL_CBU })).json();
    const mid = `wamid.ADV${++msgId}`;
    await press(`r:${approval_id}`, ANA, mid);
    const events = await eventTypes(t.app, ana.id, id);
    t.clock.advance(9 * 24 * 3600 * 1000);
    await t.app.jobs.whatsappPrune!.runOnce();
    await press(`a:${approval_id}`, ANA, mid);
    await press(`r:${approval_id}`, ANA, mid);
    await refresh(ana);
    await refresh(bob);
    expect(await statusOf(ana, id)).toBe('rejected');
    expect(await eventTypes(t.app, ana.id, id)).toEqual(events);
  });

  it('Graph API down when the approval is created: the owner decides on the dashboard; no template follows', async () => {
    wa.setFailing(true);
    const { id, approval_id } = (await withdraw(t.app, ana.agentToken, { amount_ars: 65_000, destination: EXTERNAL_CBU })).json();
    expect(await statusOf(ana, id)).toBe('pending_approval');
    expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${approval_id}/reject`, headers: bearer(ana.ownerToken) })).statusCode).toBe(200);
    wa.setFailing(false);
    t.clock.advance(31_000);
    await t.app.jobs.approvalNotices!.runOnce();
    const sentOk = await t.app.ctx.store.db.selectFrom('whatsapp_messages').select('wamid').where('approval_id', '=', approval_id).execute();
    expect(sentOk).toEqual([]);
    expect(await statusOf(ana, id)).toBe('rejected');
  });

  it("an agent's name with any kind of line break stays on one line in the template (a parameter takes none)", async () => {
    // An OAuth app names its agent itself (client_name) unless the owner types another name.
    const { templateParams } = await import('../src/modules/whatsapp/whatsapp.messages.js');
    const name = 'compras\u2028Monto: $ 1,00\u0085Destinatario: Ana\u2029fin';
    const params = templateParams({ approvalId: 'apr_x', apiKeyName: name, payout: { amount: 100, destination: EXTERNAL_CBU, destinationKind: 'CBU', reasons: [] } } as never);
    expect(params[3]).toBe('el agente «compras · Monto: $ 1,00 · Destinatario: Ana · fin»');
    for (const p of params) expect(p).not.toMatch(/[\u0085\u2028\u2029]/);
  });

  it("Aprobar on an agent's limits proposal after the owner changed those limits writes nothing, and says why", async () => {
    const { proposeThresholdChange } = await import('../src/modules/thresholds/threshold-proposal.service.js');
    await setThresholds(t.app, ana.ownerToken, { ...noLimits, per_tx_limit_ars: 300_000 });
    try {
      const p = await proposeThresholdChange(t.app.ctx, { userId: ana.id, kind: 'api_key', keyId: ana.apiKeyId, keyName: 'default' }, { per_tx_limit_ars: 200_000 });
      await setThresholds(t.app, ana.ownerToken, { ...noLimits, per_tx_limit_ars: 10_000 });
      await press(`a:${p.approval_id}`, ANA);
      expect(lastText()).toBe('🚫 No se pudo aprobar: cambiaste esos límites después de la propuesta; el agente puede proponerla de nuevo. El pedido se cerró sin cambiar tus límites.');
      expect((await t.app.inject({ url: '/v1/thresholds', headers: bearer(ana.ownerToken) })).json().per_tx_limit_ars).toBe(10_000);
    } finally {
      await setThresholds(t.app, ana.ownerToken, noLimits);
    }
  });

  it('a refused limits template is retried but does not mark the number broken: payouts still reach it', async () => {
    const { proposeThresholdChange } = await import('../src/modules/thresholds/threshold-proposal.service.js');
    const state = async () =>
      ((await t.app.inject({ url: '/v1/approval-channels', headers: bearer(ana.ownerToken) })).json().channels as { name: string; state: string }[]).find((c) => c.name === 'whatsapp')!.state;
    wa.setTemplateError(true);
    try {
      const p = await proposeThresholdChange(t.app.ctx, { userId: ana.id, kind: 'api_key', keyId: ana.apiKeyId, keyName: 'default' }, { daily_limit_ars: 654_321 });
      expect(await state()).toBe('active');
      const owed = await t.app.ctx.store.db.selectFrom('approvals').select('notify_pending').where('id', '=', p.approval_id).executeTakeFirstOrThrow();
      expect(owed.notify_pending).toBe('["whatsapp"]');
      await t.app.inject({ method: 'POST', url: `/v1/approvals/${p.approval_id}/reject`, headers: bearer(ana.ownerToken) });
    } finally {
      wa.setTemplateError(false);
    }
  });

  it("the template shows what an agent's proposal over a long trusted list would change", async () => {
    const list = Array.from({ length: 100 }, (_, i) => `proveedor.pagos.${String(i).padStart(3, '0')}`);
    await setThresholds(t.app, ana.ownerToken, { ...noLimits, whitelist_cbus: list });
    const { proposeThresholdChange } = await import('../src/modules/thresholds/threshold-proposal.service.js');
    const p = await proposeThresholdChange(t.app.ctx, { userId: ana.id, kind: 'api_key', keyId: ana.apiKeyId, keyName: 'default' }, { whitelist_cbus: [...list.slice(0, 99), 'agente.cuenta.propia'] });
    try {
      const sent = wa.templates().find((c) => JSON.stringify(c.body).includes(p.approval_id))!;
      expect(sent).toBeDefined();
      // Its own template, not the payment one ("Un pago de {{1}} a {{2}}…"): {{1}} what changes, {{2}} who proposes it.
      const template = sent.body.template as { name: string; components: { type: string; parameters: { text?: string }[] }[] };
      expect(template.name).toBe('cambio_limites');
      const params = template.components.find((c) => c.type === 'body')!.parameters.map((x) => x.text);
      expect(params).toHaveLength(2);
      expect(params[1]).toBe('el agente «default»');
      // The owner approving from the phone must be able to see the destination the agent adds.
      expect(JSON.stringify(sent.body)).toContain('agente.cuenta.propia');
    } finally {
      await setThresholds(t.app, ana.ownerToken, noLimits);
    }
  });
});
