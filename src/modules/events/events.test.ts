import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { recordEvent } from './events.service.js';

describe('the outbox (D24)', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    u = await createOnboardedUser(t.app);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/webhook',
      headers: bearer(u.ownerToken),
      payload: { url: 'http://127.0.0.1:9/hooks', secret: 'whsec-test-0123456789abcdef' },
    });
    expect(res.statusCode).toBe(200);
  });
  afterAll(() => t.close());
  const rows = async (table: 'events' | 'webhook_deliveries') =>
    t.app.ctx.store.db.selectFrom(table).select('id').where('user_id', '=', u.id).execute();

  it('writes the delivery in the event transaction: both commit, or neither does', async () => {
    const store = t.app.ctx.store;
    await expect(
      store.transaction(async (tx) => {
        await recordEvent(tx, t.clock, { userId: u.id, type: 'webhook.test', data: { n: 1 } });
        throw new Error('the change the event describes failed');
      }),
    ).rejects.toThrow('failed');
    expect(await rows('events')).toHaveLength(0);
    expect(await rows('webhook_deliveries')).toHaveLength(0);

    const e = await store.transaction((tx) => recordEvent(tx, t.clock, { userId: u.id, type: 'webhook.test', data: { n: 2 } }));
    const ds = await t.app.ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('user_id', '=', u.id).execute();
    expect(ds).toMatchObject([{ event_id: e!.id, event_type: 'webhook.test', status: 'pending', attempt_count: 0 }]);
  });

  it('a paused webhook gets no delivery; the event is still recorded', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/v1/webhook',
      headers: bearer(u.ownerToken),
      payload: { url: 'http://127.0.0.1:9/hooks', secret: 'whsec-test-0123456789abcdef', active: false },
    });
    const before = (await rows('webhook_deliveries')).length;
    await recordEvent(t.app.ctx.store.db, t.clock, { userId: u.id, type: 'webhook.test', data: {} });
    expect(await rows('webhook_deliveries')).toHaveLength(before);
    expect((await rows('events')).length).toBeGreaterThan(before);
  });

  it('the events module imports no subscriber (webhooks registers itself at composition)', () => {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      expect(readFileSync(path.join(dir, f), 'utf8')).not.toMatch(/from '\.\.\/webhooks\//);
    }
  });
});
