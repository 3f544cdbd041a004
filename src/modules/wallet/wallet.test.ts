import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  createUser,
  expectError,
  EXTERNAL_CBU,
  randomCuit,
  settle,
  startTestApp,
  withdraw,
  type TestApp,
} from '../../../test/helpers.js';
import { isCbu, isCvu, isAlias, isValidCuit, withCheckDigits } from '../../shared/ar-identifiers.js';
import { listEvents } from '../events/events.service.js';
import type { BankRail } from '../rail/rail.port.js';
import { DEFAULT_DEPOSITOR, MAGIC_CBUS } from '../rail/sandbox/sandbox-names.js';

describe('onboarding (D10)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const onboard = (token: string, payload: object) =>
    t.app.inject({ method: 'POST', url: '/v1/onboarding', headers: bearer(token), payload });

  it('issues a valid CVU and alias, KYC verified', async () => {
    const u = await createUser(t.app);
    const res = await onboard(u.ownerToken, { legal_id: randomCuit(), legal_name: 'Ana Pérez' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.asset).toBe('ARS');
    expect(body.kyc_status).toBe('verified');
    expect(isCvu(body.cvu)).toBe(true);
    expect(isAlias(body.alias)).toBe(true);
    expect(body.alias.split('.')).toHaveLength(3);
    const cvu = await t.app.inject({ method: 'GET', url: '/v1/cvu', headers: bearer(u.agentToken) });
    expect(cvu.json()).toEqual({ cvu: body.cvu, alias: body.alias, asset: 'ARS' });
  });

  it('accepts dashes in the CUIT and keeps KYC pending for the magic legal ids', async () => {
    const u = await createUser(t.app);
    const res = await onboard(u.ownerToken, { legal_id: '20-99999999-9', legal_name: 'Pending Person' });
    expect(res.statusCode).toBe(200);
    expect(res.json().kyc_status).toBe('pending');
  });

  it('refuses an invalid CUIT with 400 and changes nothing', async () => {
    const u = await createUser(t.app);
    const res = await onboard(u.ownerToken, { legal_id: '20123456787', legal_name: 'X' });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toContain('legal_id');
    expectError(await t.app.inject({ method: 'GET', url: '/v1/cvu', headers: bearer(u.ownerToken) }), 422, 'ONBOARDING_INCOMPLETE');
    expectError(await onboard(u.ownerToken, { legal_id: randomCuit() }), 400, 'INVALID_REQUEST');
  });

  it('onboards once: a second call, even concurrent, is 409 and opens one account', async () => {
    const u = await createUser(t.app);
    const legal_id = randomCuit();
    const results = await Promise.all([1, 2, 3].map(() => onboard(u.ownerToken, { legal_id, legal_name: 'Once' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json()).toEqual({
      error: 'ALREADY_ONBOARDED',
      message: "This user has already completed onboarding: GET /v1/cvu shows the wallet's CVU and alias",
    });
    const accounts = await t.app.ctx.store.db.selectFrom('rail_accounts').select('id').where('owner_ref', '=', u.id).execute();
    expect(accounts).toHaveLength(1);
  });

  it('the sandbox KYC helper sets the status', async () => {
    const u = await createOnboardedUser(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'rejected' } });
    expect(res.json()).toEqual({ kyc_status: 'rejected' });
    expectError(
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'bogus' } }),
      400,
      'INVALID_REQUEST',
    );
    const fresh = await createUser(t.app);
    expectError(
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(fresh.ownerToken), payload: { status: 'verified' } }),
      422,
      'ONBOARDING_INCOMPLETE',
    );
  });
});

describe('wallet endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '1000' } });
  });
  afterAll(() => t.close());

  const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

  it('balance and cvu answer 422 ONBOARDING_INCOMPLETE before onboarding; deposits answer []', async () => {
    const u = await createUser(t.app);
    expectError(await get('/v1/balance', u.ownerToken), 422, 'ONBOARDING_INCOMPLETE');
    expectError(await get('/v1/cvu', u.agentToken), 422, 'ONBOARDING_INCOMPLETE');
    const dep = await get('/v1/deposits', u.ownerToken);
    expect(dep.statusCode).toBe(200);
    expect(dep.json()).toEqual({ deposits: [] });
    const sd = await t.app.inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(u.ownerToken), payload: { amount_ars: 10 } });
    expectError(sd, 422, 'ONBOARDING_INCOMPLETE');
  });

  it("tells an agent that the owner opens the wallet, since the agent itself cannot", async () => {
    const u = await createUser(t.app);
    const res = await get('/v1/balance', u.agentToken);
    expectError(res, 422, 'ONBOARDING_INCOMPLETE');
    expect(res.json().message).toMatch(/owner/i);
    expect(res.json().message).toContain('POST /v1/login');
  });

  it('every wallet endpoint needs a token', async () => {
    for (const url of ['/v1/balance', '/v1/cvu', '/v1/deposits']) expectError(await get(url), 401, 'UNAUTHENTICATED');
    for (const url of ['/v1/onboarding', '/v1/sandbox/deposits', '/v1/sandbox/kyc']) {
      expectError(await t.app.inject({ method: 'POST', url, payload: {} }), 401, 'UNAUTHENTICATED');
    }
  });

  it('a sandbox deposit shows in the balance and as a credit leg with every Deposit field', async () => {
    const u = await createOnboardedUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/sandbox/deposits',
      headers: bearer(u.ownerToken),
      payload: { amount_ars: 1500.5, from_name: 'Juan Paz', from_legal_id: '20-12345678-6', from_cbu: '0170099220000067797370' },
    });
    expect(res.statusCode).toBe(201);
    expect((await get('/v1/balance', u.agentToken)).json()).toEqual({ asset: 'ARS', available: '1500.50' });
    const { deposits } = (await get('/v1/deposits', u.agentToken)).json();
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toEqual({
      id: expect.stringMatching(/^dep_/),
      from: '0170099220000067797370',
      to: u.cvu,
      fromLegalId: '20123456786',
      toLegalId: u.legalId,
      fromName: 'Juan Paz',
      toName: 'Test User',
      amount: '1500.50',
      currency: 'ARS',
      status: 'COMPLETED',
      creationTime: expect.any(String),
      direction: 'credit',
    });
  });

  it.each([
    [{ amount_ars: 0 }],
    [{ amount_ars: -1 }],
    [{ amount_ars: 1.001 }],
    [{ amount_ars: '10' }],
    [{ amount_ars: 10, from_cbu: '2850590940090418135202' }],
    [{ amount_ars: 10, from_legal_id: '20123456787' }],
  ])('refuses the sandbox deposit %j with 400 and credits nothing', async (payload) => {
    const u = await createOnboardedUser(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(u.ownerToken), payload });
    expect(res.statusCode).toBe(400);
    expect((await get('/v1/balance', u.ownerToken)).json().available).toBe('0.00');
  });

  it('a sandbox deposit without a sender comes from a made-up company, never confusable with the user or a payout destination', async () => {
    const u = await createOnboardedUser(t.app, { name: 'Test User', fundArs: 10 });
    const [d] = (await get('/v1/deposits', u.ownerToken)).json().deposits;
    expect(d).toMatchObject({ direction: 'credit', status: 'COMPLETED', from: DEFAULT_DEPOSITOR.cbu, fromName: DEFAULT_DEPOSITOR.name });
    expect(isCbu(d.from)).toBe(true);
    expect(isValidCuit(d.fromLegalId)).toBe(true);
    expect(d.fromLegalId.startsWith('30')).toBe(true); // a company's CUIT, unlike any person's
    expect([u.cvu, EXTERNAL_CBU, ...Object.values(MAGIC_CBUS)]).not.toContain(d.from);
    expect(d.fromLegalId).not.toBe(u.legalId);
    expect(d.fromName).not.toBe(d.toName);
  });

  it('a failed payout shows as a FAILED debit and a REVERSED credit from the account it was sent to, never as a deposit', async () => {
    const u = await createOnboardedUser(t.app, { fundArs: 100 });
    const res = await withdraw(t.app, u.agentToken, { amount_ars: 25, destination: 'sandbox.fail', destination_kind: 'ALIAS' });
    expect(res.statusCode).toBe(201);
    await settle(t);
    const [reversal, debit, funding] = (await get('/v1/deposits', u.ownerToken)).json().deposits;
    expect(debit).toMatchObject({ direction: 'debit', status: 'FAILED', amount: '25.00', from: u.cvu, to: MAGIC_CBUS.fail });
    expect(reversal).toMatchObject({ direction: 'credit', status: 'REVERSED', amount: '25.00', from: MAGIC_CBUS.fail, fromName: 'Sandbox fail', to: u.cvu });
    expect(reversal.from).not.toBe(funding.from);
    await t.app.jobs.depositDetection!.runOnce();
    const detected = await listEvents(t.app.ctx.store.db, u.id, 'deposit.detected');
    expect(detected.map((e) => (e.data as { id: string }).id)).toEqual([funding.id]);
  });

  it('A pays B by alias: a debit leg for A, a credit leg for B, each user sees only their own', async () => {
    const a = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 500 });
    const b = await createOnboardedUser(t.app, { name: 'Beto' });
    t.clock.advance(1000);
    const out = await t.app.ctx.rail.submitTransfer({ reference: `ab-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS', to: b.alias, amountCentavos: 12345 });
    expect(out.kind).toBe('accepted');

    const aLegs = (await get('/v1/deposits', a.ownerToken)).json().deposits;
    const bLegs = (await get('/v1/deposits', b.ownerToken)).json().deposits;
    expect(aLegs.map((d: { direction: string; amount: string }) => [d.direction, d.amount])).toEqual([
      ['debit', '123.45'],
      ['credit', '500.00'],
    ]);
    expect(bLegs).toHaveLength(1);
    expect(bLegs[0]).toMatchObject({ direction: 'credit', amount: '123.45', from: a.cvu, fromName: 'Ana', to: b.cvu, toName: 'Beto' });
    expect(JSON.stringify(bLegs)).not.toContain('500.00');
    expect((await get('/v1/balance', b.ownerToken)).json().available).toBe('123.45');
    expect((await get('/v1/balance', a.ownerToken)).json().available).toBe('376.55');
  });
});

describe('deposit detection', () => {
  it('records exactly one deposit.detected per incoming leg, also after a restart', async () => {
    const first = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '1000' } });
    const store = first.store;
    const a = await createOnboardedUser(first.app, { fundArs: 300 });
    const b = await createOnboardedUser(first.app);
    await first.app.ctx.rail.submitTransfer({ reference: `det-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS', to: b.alias, amountCentavos: 10000 });
    // A payout that fails after acceptance gives the money back; the reversal is not a deposit.
    await first.app.ctx.rail.submitTransfer({ reference: `rev-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS', to: 'sandbox.fail', amountCentavos: 100 });

    await first.app.jobs.depositDetection!.runOnce();
    // B's credit is still IN_PROGRESS: not announced until the rail completes it.
    expect(await listEvents(first.app.ctx.store.db, b.id, 'deposit.detected')).toHaveLength(0);
    first.clock.advance(1000);
    await first.app.jobs.railSettlement!.runOnce();
    await Promise.all([first.app.jobs.depositDetection!.runOnce(), first.app.jobs.depositDetection!.runOnce()]);
    await first.app.jobs.depositDetection!.runOnce();

    const bEvents = await listEvents(first.app.ctx.store.db, b.id, 'deposit.detected');
    expect(bEvents).toHaveLength(1);
    expect(bEvents[0]!.data).toMatchObject({ direction: 'credit', amount: '100.00', from: a.cvu, to: b.cvu, cvu: b.cvu });
    expect(await listEvents(first.app.ctx.store.db, a.id, 'deposit.detected')).toHaveLength(1); // the sandbox deposit only
    await first.app.close();

    const second = await startTestApp({ store });
    try {
      await second.app.jobs.depositDetection!.runOnce();
      expect(await listEvents(second.app.ctx.store.db, b.id, 'deposit.detected')).toHaveLength(1);
      expect(await listEvents(second.app.ctx.store.db, a.id, 'deposit.detected')).toHaveLength(1);
    } finally {
      await second.app.close();
      await store.drop();
    }
  });

  it('misses nothing however many deposits arrive between passes', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app);
      const { cbu, name, legalId } = DEFAULT_DEPOSITOR;
      for (let i = 0; i < 250; i++) {
        await t.app.ctx.sandboxRail.depositFromOutside({ cvu: u.cvu, amountCentavos: 100 + i, fromCbu: cbu, fromName: name, fromLegalId: legalId });
      }
      await t.app.jobs.depositDetection!.runOnce();
      expect(await listEvents(t.app.ctx.store.db, u.id, 'deposit.detected')).toHaveLength(250);
    } finally {
      await t.close();
    }
  });

  it('a notice for an account no wallet holds is set aside with its reason, not retried', async () => {
    const t = await startTestApp();
    try {
      const ghost = await t.app.ctx.rail.openAccount({ ownerRef: 'usr_without_wallet', legalId: randomCuit(), legalName: 'Nadie' });
      const { cbu, name, legalId } = DEFAULT_DEPOSITOR;
      const leg = await t.app.ctx.sandboxRail.depositFromOutside({ cvu: ghost.cvu, amountCentavos: 500, fromCbu: cbu, fromName: name, fromLegalId: legalId });
      await t.app.jobs.depositDetection!.runOnce();
      t.clock.advance(10 * 60_000);
      await t.app.jobs.depositDetection!.runOnce();
      const row = await t.app.ctx.store.db.selectFrom('rail_incoming_notices').selectAll().where('id', '=', leg.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'failed', attempts: 1, failure_reason: `no wallet holds account ${ghost.cvu}` });
      expect(await t.app.ctx.store.db.selectFrom('events').select('id').where('type', '=', 'deposit.detected').execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('two nodes sharing the database announce each deposit once', async () => {
    const one = await startTestApp();
    const two = await startTestApp({ store: one.store });
    try {
      const u = await createOnboardedUser(one.app);
      const { cbu, name, legalId } = DEFAULT_DEPOSITOR;
      for (let i = 0; i < 120; i++) {
        await one.app.ctx.sandboxRail.depositFromOutside({ cvu: u.cvu, amountCentavos: 100 + i, fromCbu: cbu, fromName: name, fromLegalId: legalId });
      }
      two.clock.set(one.clock.now());
      await Promise.all([one.app.jobs.depositDetection!.runOnce(), two.app.jobs.depositDetection!.runOnce()]);
      const events = await listEvents(one.app.ctx.store.db, u.id, 'deposit.detected');
      expect(events).toHaveLength(120);
      expect(new Set(events.map((e) => (e.data as { id: string }).id)).size).toBe(120);
      expect(await one.app.ctx.store.db.selectFrom('rail_incoming_notices').select('id').execute()).toEqual([]);
    } finally {
      await two.app.close();
      await one.close();
    }
  });

  it('with 10,000 wallets, a pass makes rail calls for the new deposits only, never lists legs, and an idle pass is one call', async () => {
    const calls: string[] = [];
    const counting = (rail: BankRail): BankRail =>
      new Proxy(rail, {
        get(target, prop) {
          const v = Reflect.get(target, prop, target) as unknown;
          if (typeof v !== 'function') return v;
          return (...args: unknown[]) => {
            calls.push(String(prop));
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '1000' }, deps: { rail: counting } });
    try {
      await insertWallets(t.app, 10_000);
      const a = await createOnboardedUser(t.app, { fundArs: 100 });
      const b = await createOnboardedUser(t.app);
      for (const amount_ars of [10, 20]) {
        await t.app.inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(b.ownerToken), payload: { amount_ars } });
      }
      await t.app.ctx.rail.submitTransfer({ reference: `big-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS', to: b.alias, amountCentavos: 500 });
      t.clock.advance(1000);
      await t.app.jobs.railSettlement!.runOnce();

      calls.length = 0;
      const started = performance.now();
      await t.app.jobs.depositDetection!.runOnce();
      t.app.log.info({ ms: performance.now() - started }, 'detection pass over 10,000 wallets');
      expect(calls).toEqual(['takeIncoming', 'ackIncoming']);
      expect(await listEvents(t.app.ctx.store.db, a.id, 'deposit.detected')).toHaveLength(1);
      expect(await listEvents(t.app.ctx.store.db, b.id, 'deposit.detected')).toHaveLength(3);

      calls.length = 0;
      await t.app.jobs.depositDetection!.runOnce();
      expect(calls).toEqual(['takeIncoming']);
    } finally {
      await t.close();
    }
  }, 120_000);
});

/** Setup only (not what is tested): onboarded wallets written straight into the store, with their rail accounts. */
async function insertWallets(app: FastifyInstance, n: number): Promise<void> {
  const now = new Date().toISOString();
  await app.ctx.store.db.transaction().execute(async (tx) => {
    for (let start = 0; start < n; start += 500) {
      const batch = Array.from({ length: Math.min(500, n - start) }, (_, k) => {
        const i = start + k;
        return { id: `usr_bulk${String(i).padStart(6, '0')}`, cvu: withCheckDigits('0000003', `9${String(i).padStart(12, '0')}`), alias: `bulk.wallet.${i}` };
      });
      await tx
        .insertInto('users')
        .values(batch.map((w) => ({ id: w.id, email: `${w.id}@example.com`, name: 'Bulk', password_hash: 'x', created_at: now })))
        .execute();
      await tx
        .insertInto('rail_accounts')
        .values(
          batch.map((w) => ({
            id: `acc_${w.id}`,
            owner_ref: w.id,
            cvu: w.cvu,
            alias: w.alias,
            holder_name: 'Bulk',
            holder_legal_id: '20123456786',
            kind: 'customer' as const,
            balance: 0,
            created_at: now,
          })),
        )
        .execute();
      await tx
        .insertInto('wallets')
        .values(
          batch.map((w) => ({
            user_id: w.id,
            legal_id: '20123456786',
            legal_name: 'Bulk',
            cvu: w.cvu,
            alias: w.alias,
            kyc_status: 'verified' as const,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
  });
}
