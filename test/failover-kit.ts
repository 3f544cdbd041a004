/**
 * What the PostgreSQL failover tests share (D42): connections named per test so that only its own are terminated,
 * an admin session, a log sink, and events counted per payout.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { TestStore } from './helpers.js';

/** Same convention as src/db/failover.test.ts: these run only with TEST_DATABASE_URL (CI sets it). */
export const base = process.env.TEST_DATABASE_URL;

export function via(store: TestStore, url: (u: URL) => string): TestStore {
  return { ...store, config: { ...store.config, databaseUrl: url(new URL(store.config.databaseUrl)) } };
}
export const named = (name: string) => (u: URL) => {
  u.searchParams.set('application_name', name);
  return u.toString();
};

export async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Terminates every connection of the app named `name` (only this test's; never another database's). */
export const killAll = (name: string) =>
  admin(async (c) => (await c.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()', [name])).rowCount ?? 0);

/** Log lines captured from the app's logger. */
export function logSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  return { stream, lines };
}

export async function eventCount(t: { app: FastifyInstance }, type: string, payoutId: string): Promise<number> {
  const rows = await t.app.ctx.store.db.selectFrom('events').select(['data']).where('type', '=', type).execute();
  return rows.filter((r) => JSON.parse(r.data).id === payoutId).length;
}
