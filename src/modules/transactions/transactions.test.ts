import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, EXTERNAL_CBU, setThresholds, startTestApp, withdraw } from '../../../test/helpers.js';

describe('GET /v1/transactions (D34)', () => {
  it('250 entries paged at 100 return each exactly once while new payouts arrive between pages', async () => {
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '0' } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 0, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      for (let i = 0; i < 30; i++) {
        await t.app.inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(u.ownerToken), payload: { amount_ars: 100 + i } });
      }
      await t.app.jobs.depositDetection!.runOnce();
      for (let i = 0; i < 219; i++) expect((await withdraw(t.app, u.agentToken, { amount_ars: 1 + i, destination: EXTERNAL_CBU, note: `n${i}` })).statusCode).toBe(201);
      const page = (cursor?: string) =>
        t.app.inject({ method: 'GET', url: `/v1/transactions?limit=100${cursor ? `&cursor=${cursor}` : ''}`, headers: bearer(u.agentToken) });

      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      for (;;) {
        const res = (await page(cursor)).json();
        pages++;
        seen.push(...res.transactions.map((x: { id: string }) => x.id));
        // Money keeps moving between pages.
        await withdraw(t.app, u.agentToken, { amount_ars: 7, destination: EXTERNAL_CBU });
        if (!res.has_more) {
          expect(res.next_cursor).toBeNull();
          break;
        }
        cursor = res.next_cursor;
      }
      expect(pages).toBe(3);
      expect(seen).toHaveLength(250); // the one-time initial deposit, 30 more, 219 payouts
      expect(new Set(seen).size).toBe(250);
      expect([...seen].sort().reverse()).toEqual(seen);

      const newest = (await t.app.inject({ method: 'GET', url: '/v1/transactions', headers: bearer(u.agentToken) })).json();
      expect(newest.transactions).toHaveLength(20);
      const debit = newest.transactions[0];
      expect(debit).toMatchObject({ type: 'debit', amount: 7, destination: EXTERNAL_CBU, status: 'completed', description: '' });
      expect(Object.keys(debit)).not.toContain('origin');
      const credits = (await page()).json().transactions;
      const all = [...credits];
      let c = (await page()).json();
      while (c.has_more) {
        c = (await page(c.next_cursor)).json();
        all.push(...c.transactions);
      }
      const credit = all.find((x: { type: string }) => x.type === 'credit');
      expect(credit).toMatchObject({ type: 'credit', status: 'completed', origin: expect.any(String), counterparty_name: expect.any(String) });
      expect(credit.description).toContain(credit.counterparty_name);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('needs transactions:read; limit over 100 is refused; another user sees nothing of it', async () => {
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '0' } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      await withdraw(t.app, u.agentToken, { amount_ars: 5, destination: EXTERNAL_CBU });
      const key = (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name: 'payer', scopes: ['payouts:write'] } })).json();
      const token = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.key } })).json().token;
      expectError(await t.app.inject({ method: 'GET', url: '/v1/transactions', headers: bearer(token) }), 403, 'INSUFFICIENT_SCOPE');
      expectError(await t.app.inject({ method: 'GET', url: '/v1/transactions?limit=101', headers: bearer(u.ownerToken) }), 400, 'INVALID_REQUEST');
      // A garbage cursor is refused, not read as an empty page; so are another list's ids (the withdraws and
      // approvals lists alike).
      for (const url of ['/v1/transactions?cursor=garbage', '/v1/transactions?cursor=zzzz', '/v1/withdraws?cursor=garbage', '/v1/approvals?cursor=txn_x']) {
        const res = await t.app.inject({ method: 'GET', url, headers: bearer(u.ownerToken) });
        expectError(res, 400, 'INVALID_REQUEST');
        expect(res.json().message).toMatch(/^cursor: /);
      }
      const other = await createOnboardedUser(t.app);
      const theirs = (await t.app.inject({ method: 'GET', url: '/v1/transactions', headers: bearer(other.ownerToken) })).json();
      expect(theirs).toEqual({ transactions: [], next_cursor: null, has_more: false });
      expectError(await t.app.inject({ method: 'GET', url: '/v1/transfers/' + (await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(u.ownerToken) })).json().withdraws[0].id, headers: bearer(other.ownerToken) }), 404, 'NOT_FOUND');
    } finally {
      await t.close();
    }
  });
});
