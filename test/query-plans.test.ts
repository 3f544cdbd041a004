import { CompiledQuery, sql } from 'kysely';
import { isPlanReused } from '../src/db/postgres.js';
import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, settle, startTestApp, withdraw, type TestApp } from './helpers.js';

/** Tables that grow with users or history: a request or a job must never read one of them end to end. */
const GROWING = [
  'users',
  'api_keys',
  'wallets',
  'payouts',
  'payout_usage',
  'approvals',
  'idempotency_keys',
  'events',
  'audit_log',
  'webhook_deliveries',
  'rail_accounts',
  'rail_transfers',
  'rail_legs',
  'rail_incoming_notices',
  'telegram_updates',
  'telegram_link_codes',
];

/** Each pass over due work, and the index on its due time that must serve it. */
const DUE_QUERIES: [RegExp, string][] = [
  [/from "payouts" where "next_check_at" <= /, 'payouts_next_check_idx'],
  [/from "rail_transfers" where "status" = 'IN_PROGRESS' and "confirm_after" <= /, 'rail_transfers_due_idx'],
  // The claim of one named delivery reads it by id instead.
  [/from "webhook_deliveries" where "status" = \? and "next_attempt_at" <= \? and \("locked_until" is null or "locked_until" <= \?\) order by/, 'webhook_deliveries_due_idx'],
  [/from "approvals" where "notify_next_at" <= /, 'approvals_notify_due_idx'],
];

/**
 * Requests of every kind and a pass of every job; with `pastRetention`, a second pass once everything kept for a
 * while has expired, so the purges find rows.
 */
async function workload(t: TestApp, o: { pastRetention: boolean }): Promise<void> {
  const app = t.app;
  const a = await createOnboardedUser(app, { fundArs: 1_000_000 });
  const b = await createOnboardedUser(app, { fundArs: 10 });
  await app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(a.ownerToken), payload: { url: 'http://127.0.0.1:9/hook', secret: 'a-secret-of-16-chars' } });
  const allowed = (await withdraw(app, a.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'qp-1')).json();
  await withdraw(app, a.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'qp-1');
  await withdraw(app, a.agentToken, { amount_ars: 5, destination: b.alias, destination_kind: 'ALIAS' });
  const held = (await withdraw(app, a.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU })).json();
  const held2 = (await withdraw(app, a.agentToken, { amount_ars: 60_001, destination: EXTERNAL_CBU })).json();
  await withdraw(app, a.agentToken, { amount_ars: 60_002, destination: EXTERNAL_CBU });
  await app.inject({ method: 'POST', url: `/v1/approvals/${held.approval_id}/approve`, headers: bearer(a.ownerToken) });
  await app.inject({ method: 'POST', url: `/v1/approvals/${held2.approval_id}/reject`, headers: bearer(a.ownerToken) });
  for (const url of [
    '/v1/balance',
    '/v1/cvu',
    '/v1/deposits',
    '/v1/withdraws',
    `/v1/withdraws?limit=1&cursor=${allowed.id}`,
    `/v1/withdraws/${allowed.id}`,
    `/v1/withdraws/${allowed.id}/receipt`,
    '/v1/approvals',
    '/v1/approvals?status=pending',
    `/v1/approvals/${held.approval_id}`,
    '/v1/api-keys',
    '/v1/thresholds',
    '/v1/webhook',
    '/v1/webhook/deliveries',
  ]) {
    expect((await app.inject({ method: 'GET', url, headers: bearer(a.ownerToken) })).statusCode).toBeLessThan(300);
  }
  await app.inject({ method: 'POST', url: '/v1/webhook/test', headers: bearer(a.ownerToken) });
  await settle(t, 5_000);
  t.clock.advance(301_000);
  for (const job of Object.values(app.jobs)) await job.runOnce();
  if (!o.pastRetention) return;
  t.clock.advance(8 * 24 * 3600 * 1000);
  for (const job of Object.values(app.jobs)) await job.runOnce();
}

/**
 * A test app that has run `workload`, with each distinct statement the workload ran and its first parameters. The
 * migrations at start, and whatever the test runs afterwards, are not captured. The caller closes the app.
 */
async function capturedWorkload(o: { pastRetention: boolean }): Promise<{ t: TestApp; seen: Map<string, readonly unknown[]> }> {
  const seen = new Map<string, readonly unknown[]>();
  let capturing = false;
  const t = await startTestApp({
    deps: { onQuery: (text, params) => void (capturing && !seen.has(text) && seen.set(text, params)) },
    env: { JWT_EXPIRY_HOURS: '8760' },
  });
  try {
    capturing = true;
    await workload(t, o);
  } catch (err) {
    await t.close();
    throw err;
  } finally {
    capturing = false;
  }
  return { t, seen };
}

/**
 * Cost proportional to work: runs a representative workload (requests of every kind and every job), then asks
 * the store to plan each distinct statement it ran, and fails on a full scan of a growing table. PostgreSQL is
 * asked with sequential scans disabled, so a "Seq Scan" in the plan means no index can serve it.
 */
describe('query plans', () => {
  it('no constraint is deferred: on SQLite a lone write shares a COMMIT, where a deferred check would fail the others', async () => {
    const t = await startTestApp();
    try {
      const db = t.app.ctx.store.db;
      const found =
        t.app.ctx.store.dialect === 'sqlite'
          ? (await sql<{ name: string }>`select name from sqlite_master where sql like '%deferrable%'`.execute(db)).rows
          : (await sql<{ name: string }>`select conname as name from pg_constraint where condeferrable`.execute(db)).rows;
      expect(found).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('an index on a due time holds only rows that can still become due, not every row ever written', async () => {
    const t = await startTestApp();
    try {
      const db = t.app.ctx.store.db;
      const defs =
        t.app.ctx.store.dialect === 'sqlite'
          ? (await sql<{ name: string; def: string }>`select name, sql as def from sqlite_master where type = 'index' and sql is not null`.execute(db)).rows
          : (await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema()`.execute(db)).rows;
      const where = Object.fromEntries(defs.map((d) => [d.name, d.def.replace(/^.*\bwhere\b/is, '').replace(/["()]/g, '').trim()]));
      expect(where).toMatchObject({
        payouts_next_check_idx: expect.stringMatching(/^next_check_at is not null$/i),
        webhook_deliveries_due_idx: expect.stringMatching(/^next_attempt_at is not null$/i),
        approvals_notify_due_idx: expect.stringMatching(/^notify_next_at is not null$/i),
        rail_transfers_due_idx: expect.stringMatching(/^status\s*=\s*'IN_PROGRESS'(::text)?$/i),
      });
    } finally {
      await t.close();
    }
  });

  it('every statement of the request paths and the jobs is served by an index', async () => {
    const { t, seen } = await capturedWorkload({ pastRetention: true });
    try {
      const app = t.app;
      const db = app.ctx.store.db;
      const postgres = app.ctx.store.dialect === 'postgres';
      const scans: string[] = [];
      const plans = new Map<string, string[]>();
      await db.connection().execute(async (c) => {
        if (postgres) await sql`set enable_seqscan = off`.execute(c);
        for (const [text, params] of seen) {
          if (!/^\s*(select|update|delete|insert into .* select)/i.test(text) || /kysely_migration/.test(text)) continue;
          const plan = await c.executeQuery(CompiledQuery.raw(`${postgres ? 'explain' : 'explain query plan'} ${text}`, [...params]));
          const lines = plan.rows.map((r) => String((r as Record<string, unknown>)[postgres ? 'QUERY PLAN' : 'detail']));
          plans.set(text, lines);
          const bad = lines.filter((l) =>
            GROWING.some((tbl) => (postgres ? new RegExp(`Seq Scan on ${tbl}\\b`) : new RegExp(`^SCAN ${tbl}\\b`)).test(l.trim())),
          );
          if (bad.length > 0) scans.push(`${text}\n    -> ${bad.join(' | ')}`);
        }
        if (postgres) await sql`reset enable_seqscan`.execute(c);
      });
      expect(seen.size).toBeGreaterThan(40);
      expect(scans).toEqual([]);
      // Each due pass reads its own partial index (SQLite's planner is deterministic; PostgreSQL may pick
      // another index for tables this small, and is held to "no full scan" above).
      if (!postgres) {
        for (const [due, index] of DUE_QUERIES) {
          const found = [...plans].filter(([text]) => due.test(text));
          expect(found.length, `a statement matching ${due}`).toBeGreaterThan(0);
          for (const [text, lines] of found) expect(lines.join(' | '), text).toContain(`USING INDEX ${index}`);
        }
      }
    } finally {
      await t.close();
    }
  }, 60_000);

  // D42: PostgreSQL may reuse a named statement's generic plan, made once for any values and kept until the table's
  // statistics change: one made while a table was a page or two once read the whole table for as long as it was
  // kept. So only statements whose call site says their plan does not depend on that (`compiled()`, lookups and
  // writes by key) run named; their generic plan, made here on young tables (the worst case), must use an index.
  // Claims and lists are sent unnamed and planned for their own values at every run.
  it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL, every statement whose plan is reused has a generic plan that uses an index, even one made on young tables', async () => {
    const { t, seen } = await capturedWorkload({ pastRetention: false });
    try {
      const all = [...seen];
      const reused = all.filter(([text]) => isPlanReused(text));
      expect(reused.length).toBeGreaterThan(20);
      // The claims and purges (a statement over rows a subquery picked) are planned each time; lists of keys are
      // too, by construction (`compiledForList`), while a short `in` beside a key (`id = $1 and status in (…)`) is a
      // lookup by that key, held to the plan check below like any other.
      const valueDependent = all.filter(([text]) => /^\s*(update|delete)\b.*\(select\b/is.test(text));
      expect(valueDependent.length).toBeGreaterThanOrEqual(6);
      expect(valueDependent.filter(([text]) => isPlanReused(text)).map(([text]) => text)).toEqual([]);
      const scans: string[] = [];
      await t.app.ctx.store.db.connection().execute(async (c) => {
        // The service's own session settings, as every pooled connection has them.
        expect((await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(c)).rows[0]!.mode).toBe('auto');
        await sql`set plan_cache_mode = force_generic_plan`.execute(c);
        for (const [i, [text, params]] of reused.entries()) {
          await c.executeQuery(CompiledQuery.raw(`prepare reused_${i} as ${text}`));
          const args = params.length > 0 ? `(${params.map(literal).join(', ')})` : '';
          const lines = (await c.executeQuery(CompiledQuery.raw(`explain execute reused_${i}${args}`))).rows.map(planLine);
          const bad = lines.filter((l) => GROWING.some((tbl) => new RegExp(`Seq Scan on ${tbl}\\b`).test(l.trim())));
          if (bad.length > 0) scans.push(`${text}\n    ${lines.join('\n    ')}`);
        }
        await sql`deallocate all`.execute(c);
        await sql`reset plan_cache_mode`.execute(c);
      });
      expect(scans).toEqual([]);
    } finally {
      await t.close();
    }
  }, 60_000);
});

const planLine = (r: unknown) => String((r as Record<string, unknown>)['QUERY PLAN']);

/** A parameter as an SQL literal, for `EXECUTE`. */
const literal = (v: unknown): string =>
  v === null || v === undefined ? 'null' : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
