import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttonPress, signedDelivery, startFakeWhatsApp, statusUpdate, textMessage } from '../../../test/fake-whatsapp.js';
import {
  bearer,
  createOnboardedUser,
  eventTypes,
  expectError,
  EXTERNAL_CBU,
  PASSWORD,
  setThresholds,
  settle,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';

const PHONE_ID = '106540352242922';
const SECRET = 'wa-app-secret-0123456789';
const VERIFY = 'wa-verify-token-0123456789';
const ANA = '5491155551234';

describe('WhatsApp approval channel (D45)', () => {
  let wa: Awaited<ReturnType<typeof startFakeWhatsApp>>;
  let t: TestApp;
  let owner: OnboardedUser;
  let msgId = 0;

  const deliver = (value: Record<string, unknown>, secret = SECRET) => {
    const { payload, signature } = signedDelivery(secret, value);
    return t.app.inject({
      method: 'POST',
      url: '/v1/channels/whatsapp/webhook',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      payload,
    });
  };
  const press = (payload: string, from = ANA, id = `wamid.IN${++msgId}`) => deliver(buttonPress(from, id, payload));
  const payoutStatus = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/withdraws/${id}`, headers: bearer(owner.ownerToken) })).json().status;
  const channels = async (u = owner) => (await t.app.inject({ method: 'GET', url: '/v1/approval-channels', headers: bearer(u.ownerToken) })).json().channels;
  const lastText = () => String((wa.texts().at(-1)!.body.text as { body: string }).body);
  const refresh = async () => {
    owner.agentToken = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: owner.apiKey } })).json().token;
    owner.ownerToken = (await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: owner.email, password: PASSWORD } })).json().token;
  };
  const link = async (u: OnboardedUser, from: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    await deliver(textMessage(from, `wamid.IN${++msgId}`, body.text));
    return body;
  };

  beforeAll(async () => {
    wa = await startFakeWhatsApp(PHONE_ID);
    t = await startTestApp({
      env: {
        APPROVAL_CHANNELS: 'whatsapp',
        WHATSAPP_TOKEN: 'EAAG-test-token',
        WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
        WHATSAPP_APP_SECRET: SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY,
        WHATSAPP_TEMPLATE: 'aprobacion_pago:es_AR',
        WHATSAPP_API_ROOT: wa.apiRoot,
      },
    });
    owner = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 2_000_000 });
    // Many payouts ask for approval here: no daily or monthly limit gets in the way.
    await setThresholds(t.app, owner.ownerToken, { per_tx_limit_ars: 100000, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 50000, whitelist_cbus: [] });
  });
  afterAll(async () => {
    await t.close();
    await wa.close();
  });

  it('answers the GET verification only with the verify token', async () => {
    const ok = await t.app.inject({ method: 'GET', url: `/v1/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444` });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const bad = await t.app.inject({ method: 'GET', url: '/v1/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1' });
    expectError(bad, 403, 'FORBIDDEN');
  });

  it('with WhatsApp the only channel and no number linked, a payout that needs approval is 503', async () => {
    expectError(await withdraw(t.app, owner.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU }), 503, 'APPROVAL_NOT_CONFIGURED');
    expect(await channels()).toEqual([{ name: 'whatsapp', linked: false, linked_at: null, username: null, phone: null, state: null, problem: null }]);
  });

  it('links the number the code is sent from, shown masked; the code is one-time and owner-only', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(owner.agentToken) }), 403, 'OWNER_SESSION_REQUIRED');
    const res = await t.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(owner.ownerToken) });
    expect(res.statusCode).toBe(201);
    const { code, text, link, expires_in } = res.json();
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(link).toBe(`https://wa.me/5491150000000?text=${encodeURIComponent(`Vincular ${code}`)}`);
    expect(text).toBe(`Vincular ${code}`);
    expect(expires_in).toBe(900);
    expect(wa.calls[0]!.auth).toBe('Bearer EAAG-test-token');

    expect((await deliver(textMessage(ANA, `wamid.IN${++msgId}`, `hola, vincular ${code.toLowerCase()}`))).statusCode).toBe(200);
    const [ch] = await channels();
    expect(ch).toMatchObject({ name: 'whatsapp', linked: true, phone: '+54 •••• 1234', state: 'active', problem: null });
    expect(JSON.stringify(ch)).not.toContain(ANA);
    expect(lastText()).toContain('Listo');
    expect(wa.texts().at(-1)!.body.to).toBe(ANA);

    const other = await createOnboardedUser(t.app);
    await deliver(textMessage('5491166660000', `wamid.IN${++msgId}`, `Vincular ${code}`));
    expect((await channels(other))[0].linked).toBe(false);
    expect(lastText()).toContain('no es válido');
    const activity = (await t.app.inject({ method: 'GET', url: '/v1/activity', headers: bearer(owner.ownerToken) })).json().entries;
    expect(activity.some((e: { action: string }) => e.action === 'whatsapp.linked')).toBe(true);
  });

  it('a link code expires after 15 minutes', async () => {
    const u = await createOnboardedUser(t.app);
    const { text } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) })).json();
    t.clock.advance(15 * 60 * 1000);
    await deliver(textMessage('5491177770000', `wamid.IN${++msgId}`, text));
    expect((await channels(u))[0].linked).toBe(false);
    await refresh();
  });

  it('a number that sends five wrong codes is told to wait, and its codes are not read until its window ends', async () => {
    const u = await createOnboardedUser(t.app);
    const GUESSER = '5491188880000';
    const { text } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) })).json();
    const guess = (body: string, from = GUESSER) => deliver(textMessage(from, `wamid.IN${++msgId}`, body));
    for (const wrong of ['Vincular ZZZZ-2223', 'Vincular ZZZZ-2224', 'Vincular ZZZZ-2225', 'Vincular ZZZZ-2226']) {
      expect((await guess(wrong)).statusCode).toBe(200);
      expect(lastText()).toContain('no es válido');
    }
    await guess('Vincular ZZZZ-2227');
    expect(lastText()).toContain('Demasiados códigos incorrectos');
    expect(wa.texts().at(-1)!.body.to).toBe(GUESSER);
    // Even the right code is not read now, and nothing more is answered to that number.
    const answered = wa.texts().length;
    await guess(text);
    await guess('Vincular ZZZZ-2228');
    expect(wa.texts().length).toBe(answered);
    expect((await channels(u))[0].linked).toBe(false);
    // The limit is the sender's: the owner's own phone still links with the same code.
    await guess(text, '5491188881111');
    expect((await channels(u))[0]).toMatchObject({ linked: true, phone: '+54 •••• 1111' });
    // Once the window has passed, the number's codes are read again.
    t.clock.advance(15 * 60 * 1000);
    await guess('Vincular ZZZZ-2229');
    expect(wa.texts().length).toBe(answered + 2);
    expect(lastText()).toContain('no es válido');
    await refresh();
  });

  it('only the newest link code of an owner links: asking for another retires the earlier one', async () => {
    const u = await createOnboardedUser(t.app);
    const ask = async () => (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) })).json();
    const first = await ask();
    const second = await ask();
    await deliver(textMessage('5491188882222', `wamid.IN${++msgId}`, first.text));
    expect(lastText()).toContain('no es válido');
    expect((await channels(u))[0].linked).toBe(false);
    await deliver(textMessage('5491188882222', `wamid.IN${++msgId}`, second.text));
    expect((await channels(u))[0]).toMatchObject({ linked: true, phone: '+54 •••• 2222' });
  });

  it('sends the template with amount, holder, reasons, agent and two buttons; Aprobar pays and is answered', async () => {
    const res = await withdraw(t.app, owner.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU, note: 'proveedor' });
    expect(res.statusCode).toBe(202);
    const { id, approval_id } = res.json();
    const sent = wa.templates().at(-1)!.body;
    expect(sent).toMatchObject({ messaging_product: 'whatsapp', to: ANA, type: 'template' });
    const template = sent.template as { name: string; language: { code: string }; components: { type: string; sub_type?: string; index?: string; parameters: { type: string; text?: string; payload?: string }[] }[] };
    expect(template.name).toBe('aprobacion_pago');
    expect(template.language).toEqual({ code: 'es_AR' });
    const body = template.components.find((c) => c.type === 'body')!.parameters.map((p) => p.text);
    expect(body).toEqual(['$ 60.000,00', `Titular cuenta 5201 (CBU ${EXTERNAL_CBU})`, 'supera el monto que pide aprobación', 'el agente «default»']);
    const buttons = template.components.filter((c) => c.type === 'button');
    expect(buttons.map((b) => [b.sub_type, b.index, b.parameters[0]!.payload])).toEqual([
      ['quick_reply', '0', `a:${approval_id}`],
      ['quick_reply', '1', `r:${approval_id}`],
    ]);
    // A retry of the notices job sends nothing twice.
    t.clock.advance(31_000);
    await t.app.jobs.approvalNotices!.runOnce();
    expect(wa.templates().filter((c) => JSON.stringify(c.body).includes(approval_id))).toHaveLength(1);

    expect((await press(`a:${approval_id}`)).statusCode).toBe(200);
    expect(await payoutStatus(id)).toBe('submitted');
    expect(lastText()).toContain('✅ Aprobado');
    expect(lastText()).toContain('$ 60.000,00');
    expect((wa.texts().at(-1)!.body.context as { message_id: string }).message_id).toBe(`wamid.IN${msgId}`);
    await settle(t);
    expect(await payoutStatus(id)).toBe('confirmed');
    const approval = (await t.app.inject({ method: 'GET', url: `/v1/approvals/${approval_id}`, headers: bearer(owner.ownerToken) })).json();
    expect(approval).toMatchObject({ status: 'approved', decided_via: 'whatsapp' });
    const entry = (await t.app.inject({ method: 'GET', url: '/v1/activity', headers: bearer(owner.ownerToken) }))
      .json()
      .entries.find((e: { action: string; subject_id: string }) => e.action === 'approval.approve' && e.subject_id === approval_id);
    expect(entry.data).toMatchObject({ via: 'whatsapp', api_key_name: 'default', request: { amount_ars: 60000, destination: EXTERNAL_CBU } });
    await refresh();
  });

  it("without a limits template, an agent's proposal of limits is not asked on WhatsApp: the payment template would misname it", async () => {
    const { proposeThresholdChange } = await import('../thresholds/threshold-proposal.service.js');
    const before = wa.templates().length;
    // WhatsApp is this server's only channel, so nobody could be asked.
    await expect(proposeThresholdChange(t.app.ctx, { userId: owner.id, kind: 'api_key', keyId: owner.apiKeyId, keyName: 'default' }, { daily_limit_ars: 900_000 })).rejects.toMatchObject({
      code: 'APPROVAL_NOT_CONFIGURED',
    });
    expect(wa.templates().length).toBe(before);
    // Payouts still are.
    const res = await withdraw(t.app, owner.agentToken, { amount_ars: 60_100, destination: EXTERNAL_CBU });
    expect(res.statusCode).toBe(202);
    expect(wa.templates().length).toBe(before + 1);
    await press(`r:${res.json().approval_id}`);
  });

  it('Rechazar rejects', async () => {
    const { id, approval_id } = (await withdraw(t.app, owner.agentToken, { amount_ars: 70_000, destination: EXTERNAL_CBU })).json();
    await press(`r:${approval_id}`);
    expect(await payoutStatus(id)).toBe('rejected');
    expect(lastText()).toContain('❌ Rechazado');
  });

  it('a forged signature, a replayed message, another number, a press after expiry: nothing changes', async () => {
    const { id, approval_id } = (await withdraw(t.app, owner.agentToken, { amount_ars: 80_000, destination: EXTERNAL_CBU })).json();
    const events = await eventTypes(t.app, owner.id, id);

    // Forged: signed with another secret, unsigned, or the body changed after signing.
    expectError(await deliver(buttonPress(ANA, 'wamid.FORGED1', `a:${approval_id}`), 'not-the-app-secret-000'), 401, 'UNAUTHENTICATED');
    const { payload, signature } = signedDelivery(SECRET, buttonPress(ANA, 'wamid.FORGED2', `r:${approval_id}`));
    const headers = { 'content-type': 'application/json' };
    expectError(await t.app.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', headers, payload }), 401, 'UNAUTHENTICATED');
    const tampered = payload.replace(`r:${approval_id}`, `a:${approval_id}`);
    expectError(await t.app.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', headers: { ...headers, 'x-hub-signature-256': signature }, payload: tampered }), 401, 'UNAUTHENTICATED');
    // The same JSON re-serialised (spaces) is other bytes: the signature is over the raw body.
    const spaced = JSON.stringify(JSON.parse(payload), null, 1);
    expectError(await t.app.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', headers: { ...headers, 'x-hub-signature-256': signature }, payload: spaced }), 401, 'UNAUTHENTICATED');
    expect(await payoutStatus(id)).toBe('pending_approval');

    // Another number presses the owner's button.
    await press(`a:${approval_id}`, '5491199999999');
    expect(await payoutStatus(id)).toBe('pending_approval');
    expect(lastText()).toContain('no puede decidir');
    expect(await eventTypes(t.app, owner.id, id)).toEqual(events);

    // Reject, then the same delivery again, then an Aprobar press that arrives after it.
    const rejectId = `wamid.IN${++msgId}`;
    await press(`r:${approval_id}`, ANA, rejectId);
    const afterReject = await eventTypes(t.app, owner.id, id);
    const texts = wa.texts().length;
    expect((await press(`r:${approval_id}`, ANA, rejectId)).statusCode).toBe(200);
    expect(wa.texts().length).toBe(texts); // a repeat is not answered twice
    await press(`a:${approval_id}`);
    expect(lastText()).toContain('ya estaba decidida (rechazada)');
    expect(await payoutStatus(id)).toBe('rejected');
    expect(await eventTypes(t.app, owner.id, id)).toEqual(afterReject);

    const late = (await withdraw(t.app, owner.agentToken, { amount_ars: 90_000, destination: EXTERNAL_CBU })).json();
    t.clock.advance(300_000);
    await press(`a:${late.approval_id}`);
    expect(lastText()).toContain('Vencido');
    expect(await payoutStatus(late.id)).toBe('expired');
    await refresh();
  });

  it('status callbacks (sent, delivered, read) are ignored; a body with nothing we know is accepted', async () => {
    const before = await channels();
    for (const s of ['sent', 'delivered', 'read']) expect((await deliver(statusUpdate(wa.lastWamid(), ANA, s))).statusCode).toBe(200);
    expect((await deliver({ errors: [{ code: 1 }] })).statusCode).toBe(200);
    expect(await channels()).toEqual(before);
  });

  it('while paused, Aprobar is refused in plain words and nothing is paid; Rechazar still works', async () => {
    const { id, approval_id } = (await withdraw(t.app, owner.agentToken, { amount_ars: 65_000, destination: EXTERNAL_CBU })).json();
    expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(owner.ownerToken) })).statusCode).toBe(200);
    await press(`a:${approval_id}`);
    expect(lastText()).toContain('pausados');
    expect(await payoutStatus(id)).toBe('pending_approval');
    await press(`r:${approval_id}`);
    expect(await payoutStatus(id)).toBe('rejected');
    expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: bearer(owner.ownerToken) })).statusCode).toBe(200);
  });

  it('with KYC pending, Aprobar ends the request as the dashboard does', async () => {
    const { id, approval_id } = (await withdraw(t.app, owner.agentToken, { amount_ars: 66_000, destination: EXTERNAL_CBU })).json();
    await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(owner.ownerToken), payload: { status: 'pending' } });
    await press(`a:${approval_id}`);
    expect(lastText()).toContain('No se pudo aprobar');
    expect(lastText()).toContain('identidad');
    expect(await payoutStatus(id)).toBe('failed'); // ended by the re-check, never paid (D28)
    await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(owner.ownerToken), payload: { status: 'verified' } });
  });

  it('WhatsApp unreachable: the payout stays pending and the template is retried', async () => {
    wa.setFailing(true);
    const { id, approval_id } = (await withdraw(t.app, owner.agentToken, { amount_ars: 61_000, destination: EXTERNAL_CBU })).json();
    expect(await payoutStatus(id)).toBe('pending_approval');
    wa.setFailing(false);
    t.clock.advance(31_000);
    await t.app.jobs.approvalNotices!.runOnce();
    expect(wa.templates().filter((c) => JSON.stringify(c.body).includes(approval_id))).toHaveLength(2); // one failed, one sent
    expect(await t.app.ctx.store.db.selectFrom('whatsapp_messages').select('wamid').where('approval_id', '=', approval_id).execute()).toHaveLength(1);
    await refresh();
  });

  it('a refused template shows on the channel; the next good send clears it', async () => {
    wa.setTemplateError(true);
    await withdraw(t.app, owner.agentToken, { amount_ars: 62_000, destination: EXTERNAL_CBU });
    expect((await channels())[0]).toMatchObject({ state: 'template_error', problem: { code: 132001 } });
    wa.setTemplateError(false);
    await withdraw(t.app, owner.agentToken, { amount_ars: 63_000, destination: EXTERNAL_CBU });
    expect((await channels())[0]).toMatchObject({ state: 'active', problem: null });
  });

  it('a number that stops receiving (131026, also as a failed status) is shown and no longer counts; writing again restores it', async () => {
    const res = await withdraw(t.app, owner.agentToken, { amount_ars: 64_000, destination: EXTERNAL_CBU });
    expect(res.statusCode).toBe(202);
    const wamid = wa.lastWamid();
    await deliver(statusUpdate(wamid, ANA, 'failed', 131026));
    expect((await channels())[0]).toMatchObject({ state: 'undeliverable', problem: { code: 131026 } });
    // WhatsApp was the only channel: no channel reaches the owner now.
    expectError(await withdraw(t.app, owner.agentToken, { amount_ars: 64_500, destination: EXTERNAL_CBU }), 503, 'APPROVAL_NOT_CONFIGURED');
    // The owner writes from the phone: it answers again.
    await deliver(textMessage(ANA, `wamid.IN${++msgId}`, 'hola'));
    expect((await channels())[0]).toMatchObject({ state: 'active' });
    // A send refused at once with 131026 marks it too.
    wa.setUndeliverable(ANA, true);
    expect((await withdraw(t.app, owner.agentToken, { amount_ars: 64_600, destination: EXTERNAL_CBU })).statusCode).toBe(202);
    expect((await channels())[0]).toMatchObject({ state: 'undeliverable' });
    wa.setUndeliverable(ANA, false);
    await deliver(textMessage(ANA, `wamid.IN${++msgId}`, 'hola'));
    await refresh();
  });

  it('unlinks: buttons on earlier messages are refused, and payouts need another channel', async () => {
    const { id, approval_id } = (await withdraw(t.app, owner.agentToken, { amount_ars: 67_000, destination: EXTERNAL_CBU })).json();
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/approval-channels/whatsapp', headers: bearer(owner.ownerToken) })).statusCode).toBe(204);
    await press(`a:${approval_id}`);
    expect(await payoutStatus(id)).toBe('pending_approval');
    expectError(await withdraw(t.app, owner.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU }), 503, 'APPROVAL_NOT_CONFIGURED');
    expect((await channels())[0]).toMatchObject({ linked: false, phone: null });
    // Linking again works, and one number serves one owner: linking it to another user moves it.
    await link(owner, ANA);
    const other = await createOnboardedUser(t.app);
    await link(other, ANA);
    expect((await channels(other))[0].linked).toBe(true);
    expect((await channels())[0].linked).toBe(false);
  });

  it('prunes inbound ids after the redelivery window and spent codes', async () => {
    const db = t.app.ctx.store.db;
    expect((await db.selectFrom('whatsapp_inbound').select('message_id').execute()).length).toBeGreaterThan(0);
    t.clock.advance(9 * 24 * 3600 * 1000);
    await t.app.jobs.whatsappPrune!.runOnce();
    expect(await db.selectFrom('whatsapp_inbound').select('message_id').execute()).toEqual([]);
    expect(await db.selectFrom('whatsapp_link_codes').select('code').execute()).toEqual([]);
    expect(await db.selectFrom('whatsapp_link_attempts').select('wa_id').execute()).toEqual([]);
  });
});
