import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ApprovalChannel } from '../src/modules/approvals/channels/channel.port.js';
import { bearer, createOnboardedUser, EXTERNAL_CBU, startTestApp, withdraw } from './helpers.js';
import { base } from './failover-kit.js';
import { signedDelivery, startFakeWhatsApp, textMessage } from './fake-whatsapp.js';

/**
 * The store failing after a decision has committed (D42): the caller is answered what was kept, never a 503 that
 * says nothing was; and an owner's change never commits without its activity entry.
 * PostgreSQL only (TEST_DATABASE_URL), as src/db/failover.test.ts.
 */
describe.runIf(base)('the store failing after a commit (D42)', () => {
  describe('the store failing after a decision has committed', () => {
    /** An outside session that takes `table` ACCESS EXCLUSIVE when `arm()`ed code calls `take()`, until released. */
    function holder(url: () => string) {
      let c: pg.Client | null = null;
      return {
        take: async (table: string) => {
          c = new pg.Client({ connectionString: url() });
          await c.connect();
          await c.query('begin');
          await c.query(`lock table ${table} in access exclusive mode`);
        },
        release: async () => {
          if (!c) return;
          const held = c;
          c = null;
          await held.query('rollback').catch(() => undefined);
          await held.end();
        },
      };
    }

    it('an approval decided, then the store fails while its payout is submitted: the owner is answered the decision, not 503', async () => {
      let url = '';
      const lock = holder(() => url);
      let armed = false;
      const rail = (sandbox: import('../src/modules/rail/sandbox/sandbox-rail.js').SandboxRail) =>
        Object.assign(Object.create(sandbox) as typeof sandbox, {
          submitTransfer: async (req: Parameters<typeof sandbox.submitTransfer>[0]) => {
            const outcome = await sandbox.submitTransfer(req);
            if (armed) {
              armed = false;
              // From here on the payouts table cannot be read or written: as if the connection were lost.
              await lock.take('payouts');
            }
            return outcome;
          },
        });
      const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '300' }, deps: { rail } });
      url = t.config.databaseUrl;
      try {
        const u = await createOnboardedUser(t.app, { fundArs: 100 });
        const thr = await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { require_approval_above_ars: 5 } });
        expect(thr.statusCode).toBe(204);
        const p = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU });
        expect(p.statusCode).toBe(202);
        armed = true;
        const approve = await t.app.inject({ method: 'POST', url: `/v1/approvals/${p.json().approval_id}/approve`, headers: bearer(u.ownerToken) });
        await lock.release();
        // The decision committed: the approval is approved and its payout will be paid.
        const a = await t.app.ctx.store.db.selectFrom('approvals').select('status').where('id', '=', p.json().approval_id).executeTakeFirstOrThrow();
        expect(a.status).toBe('approved');
        // README, Operations: a 503 says nothing was kept; a decision that stands is answered as it stands.
        expect(approve.statusCode).toBe(200);
        expect(approve.json().status).toBe('approved');
        // The follow-up job carries it out once its grace ends: paid once.
        for (let i = 0; i < 2; i++) {
          t.clock.advance(61_000);
          await t.app.jobs.payoutFollowUp!.runOnce();
          await t.app.jobs.railSettlement!.runOnce();
          await t.app.jobs.payoutFollowUp!.runOnce();
        }
        const paid = await t.app.ctx.store.db.selectFrom('payouts').select('status').where('id', '=', approve.json().payout.id).executeTakeFirstOrThrow();
        expect(paid.status).toBe('confirmed');
        const w = await t.app.ctx.store.db.selectFrom('wallets').select('cvu').where('user_id', '=', u.id).executeTakeFirstOrThrow();
        expect(await t.app.ctx.sandboxRail.getBalance(w.cvu)).toBe(100_00 - 10_00);
      } finally {
        await lock.release();
        await t.close();
      }
    });

    it('a payout held for approval, then the store fails while the owner is notified: the agent is answered 202, not 503', async () => {
      let url = '';
      const lock = holder(() => url);
      const channel: ApprovalChannel = {
        name: 'telegram',
        isAvailable: async () => true,
        notifyPending: async () => {
          // The approval is committed; from here on its table cannot be written: as if the connection were lost.
          await lock.take('approvals');
        },
        notifyResolved: async () => undefined,
      };
      const t = await startTestApp({
        env: { DATABASE_LOCK_TIMEOUT_MS: '300', APPROVAL_CHANNELS: 'dashboard,telegram', TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_WEBHOOK_SECRET: 'tg-secret-0123456789' },
        deps: { channels: { telegram: channel } },
      });
      url = t.config.databaseUrl;
      try {
        const u = await createOnboardedUser(t.app, { fundArs: 100 });
        const thr = await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { require_approval_above_ars: 5 } });
        expect(thr.statusCode).toBe(204);
        const key = 'held-for-approval';
        const p = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, key);
        await lock.release();
        const rows = await t.app.ctx.store.db.selectFrom('payouts').select(['status']).where('user_id', '=', u.id).execute();
        expect(rows.map((r) => r.status)).toEqual(['pending_approval']);
        // Its key already replays the 202: the first answer must be that 202 too, not a 503 that says nothing was kept.
        const replay = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, key);
        expect(replay.statusCode).toBe(202);
        expect(p.statusCode).toBe(202);
        expect(p.json().id).toBe(replay.json().id);
      } finally {
        await lock.release();
        await t.close();
      }
    });
  });

  it('an agent’s limits proposal (MCP) committed, then the store fails while the owner is notified: the agent gets its approval, not an error that invites a second proposal', async () => {
    let url = '';
    let c: pg.Client | null = null;
    const channel: ApprovalChannel = {
      name: 'telegram',
      isAvailable: async () => true,
      notifyPending: async () => {
        c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query('begin');
        await c.query('lock table approvals in access exclusive mode');
      },
      notifyResolved: async () => undefined,
    };
    const t = await startTestApp({
      env: { DATABASE_LOCK_TIMEOUT_MS: '300', APPROVAL_CHANNELS: 'dashboard,telegram', TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_WEBHOOK_SECRET: 'tg-secret-0123456789' },
      deps: { channels: { telegram: channel } },
    });
    url = t.config.databaseUrl;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as AddressInfo;
    const u = await createOnboardedUser(t.app);
    const mcp = new McpClient({ name: 'adversarial-agent', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${addr.port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${u.apiKey}` } } }));
    try {
      const res = (await mcp.callTool({ name: 'propose_threshold_change', arguments: { daily_limit_ars: 750_000 } })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
      const held = c as pg.Client | null;
      if (held) {
        await held.query('rollback');
        await held.end();
        c = null;
      }
      const approvals = await t.app.ctx.store.db.selectFrom('approvals').select(['id', 'status']).where('user_id', '=', u.id).execute();
      expect(approvals.map((a) => a.status)).toEqual(['pending']);
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent?.approval_id).toBe(approvals[0]!.id);
    } finally {
      await mcp.close();
      const held = c as pg.Client | null;
      if (held) await held.end().catch(() => undefined);
      await t.close();
    }
  });

  it('the owner unlinks WhatsApp while the audit log cannot be written: the link stays (503), and the retry unlinks with its entry', async () => {
    const wa = await startFakeWhatsApp('106540352242922');
    const t = await startTestApp({
      env: {
        DATABASE_LOCK_TIMEOUT_MS: '300',
        APPROVAL_CHANNELS: 'dashboard,whatsapp',
        WHATSAPP_TOKEN: 'EAAG-test-token',
        WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
        WHATSAPP_APP_SECRET: 'wa-app-secret-0123456789',
        WHATSAPP_VERIFY_TOKEN: 'wa-verify-token-0123456789',
        WHATSAPP_TEMPLATE: 'aprobacion_pago:es_AR',
        WHATSAPP_API_ROOT: wa.apiRoot,
      },
    });
    const outside = new pg.Client({ connectionString: t.config.databaseUrl });
    await outside.connect();
    try {
      const u = await createOnboardedUser(t.app);
      const { text } = (await t.app.inject({ method: 'POST', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) })).json();
      const { payload, signature } = signedDelivery('wa-app-secret-0123456789', textMessage('5491155551234', 'wamid.IN-unlink', text));
      await t.app.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, payload });
      const linked = async () => (await t.app.inject({ url: '/v1/approval-channels', headers: bearer(u.ownerToken) })).json().channels.find((c: { name: string }) => c.name === 'whatsapp').linked;
      expect(await linked()).toBe(true);
      await outside.query('begin');
      await outside.query('lock table audit_log in access exclusive mode');
      const refused = await t.app.inject({ method: 'DELETE', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) });
      await outside.query('rollback');
      expect(refused.statusCode).toBe(503);
      expect(await linked()).toBe(true);
      expect((await t.app.inject({ method: 'DELETE', url: '/v1/approval-channels/whatsapp', headers: bearer(u.ownerToken) })).statusCode).toBe(204);
      expect(await linked()).toBe(false);
      const entries = await t.app.ctx.store.db.selectFrom('audit_log').select('action').where('user_id', '=', u.id).where('action', '=', 'whatsapp.unlinked').execute();
      expect(entries).toHaveLength(1);
    } finally {
      await outside.query('rollback').catch(() => undefined);
      await outside.end();
      await t.close();
      await wa.close();
    }
  });

  it('the owner replaces the limits while the audit log cannot be written: the change is refused, or kept with its audit row', async () => {
    const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '300' } });
    const outside = new pg.Client({ connectionString: t.config.databaseUrl });
    await outside.connect();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100 });
      await outside.query('begin');
      await outside.query('lock table audit_log in access exclusive mode');
      const res = await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { per_tx_limit_ars: 999_999, daily_limit_ars: 999_999 } });
      // The audit entry's own wait (after the answer) runs out meanwhile.
      await sleep(1_000);
      await outside.query('rollback');
      const limits = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.ownerToken) })).json();
      const audits = await t.app.ctx.store.db.selectFrom('audit_log').select('action').where('user_id', '=', u.id).where('action', '=', 'thresholds.replaced').execute();
      if (res.statusCode === 204) {
        expect(limits.per_tx_limit_ars).toBe(999_999);
        // Who raised the limits is in the activity log.
        expect(audits).toHaveLength(1);
      } else {
        expect(res.statusCode).toBe(503);
        expect(limits.per_tx_limit_ars).not.toBe(999_999);
        expect(audits).toHaveLength(0);
      }
    } finally {
      await outside.query('rollback').catch(() => undefined);
      await outside.end();
      await t.close();
    }
  });
});
