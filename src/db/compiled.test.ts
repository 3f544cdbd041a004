import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/helpers.js';
import { compiled, compiledByShape, compiledForList, compiledInsert, readTogether, runRead } from './compiled.js';

/** The compiled-statement helpers on the suite's store (SQLite, or PostgreSQL in CI). */
describe('compiled statements', () => {
  it('build once per shape, bind each call’s values (a slot used twice, a missing one as NULL), and check row counts', async () => {
    const texts = new Set<string>();
    const t = await startTestApp({ deps: { onQuery: (text) => void texts.add(text) } });
    try {
      const db = t.app.ctx.store.db;
      const built: string[] = [];
      const byUsers = compiledByShape<number, Record<string, string>, { user_id: string }>((q, a, n) => {
        built.push(`shape ${n}`);
        return q.selectFrom('payout_pauses').select('user_id').where('user_id', 'in', Array.from({ length: n }, (_, i) => a[`u${i}`]!));
      });
      expect(byUsers(1)).toBe(byUsers(1));
      const pause = compiledInsert('payout_pauses', { user_id: true, paused_at: true }, { doNothingOnConflict: 'user_id' });
      expect((await pause.run(db, { user_id: 'usr_a', paused_at: '2026-01-01T00:00:00.000Z' })).changed).toBe(1);
      expect((await pause.run(db, { user_id: 'usr_a', paused_at: '2026-01-02T00:00:00.000Z' })).changed).toBe(0);
      await pause.run(db, { user_id: 'usr_b', paused_at: '2026-01-01T00:00:00.000Z' });
      texts.clear();
      expect(await byUsers(2).all(db, { u0: 'usr_a', u1: 'usr_b' })).toHaveLength(2);
      expect(await byUsers(2).all(db, { u0: 'usr_b', u1: 'nobody' })).toHaveLength(1);
      expect(await byUsers(1).all(db, { u0: 'usr_a' })).toHaveLength(1);
      expect(built.sort()).toEqual(['shape 1', 'shape 2']);
      expect(texts.size).toBe(2);

      const same = compiled<{ id: string }, { user_id: string }>((q, a) =>
        q.selectFrom('payout_pauses').select('user_id').where((eb) => eb.or([eb('user_id', '=', a.id), eb('paused_at', '=', a.id)])),
      );
      expect(await same.all(db, { id: 'usr_b' })).toEqual([{ user_id: 'usr_b' }]);
      const missing = compiled<{ id?: string }, { user_id: string }>((q, a) => q.selectFrom('payout_pauses').select('user_id').where('user_id', '=', a.id!));
      expect(await missing.all(db, {})).toEqual([]);

      await expect(pause.run(db)).rejects.toThrow(/compiled for 1 rows, given 0/);
    } finally {
      await t.close();
    }
  });
});

/**
 * `defer` (issue 13): on PostgreSQL a transaction's deferred writes are held and sent together before its next
 * statement or COMMIT; on SQLite they run at once. Either way the transaction must see, commit and roll back
 * exactly what it would with `run`.
 */
describe('deferred writes', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const pause = compiledInsert('payout_pauses', { user_id: true, paused_at: true }, { doNothingOnConflict: 'user_id' });
  const strictPause = compiledInsert('payout_pauses', { user_id: true, paused_at: true });
  const pauseOnce = compiled<{ user_id: string }>((q, a) =>
    q.insertInto('payout_pauses').values({ user_id: a.user_id, paused_at: at }).onConflict((oc) => oc.column('user_id').doNothing()),
  );
  // 12 parameters, so renumbering `$10`…`$12` behind another statement's placeholders is exercised.
  const addUsage = compiled<Record<string, string | number>>((q, a) =>
    q
      .insertInto('payout_usage')
      .values(['d', 'm', 'x', 'y'].map((p) => ({ subject: a.s as string, period: a[p] as string, amount: a.amount as number })))
      .onConflict((oc) => oc.columns(['subject', 'period']).doUpdateSet((eb) => ({ amount: eb('payout_usage.amount', '+', eb.ref('excluded.amount')) }))),
  );
  const usageOf = compiled<{ s: string }, { period: string; amount: number }>((q, a) =>
    q.selectFrom('payout_usage').select(['period', 'amount']).where('subject', '=', a.s).orderBy('period'),
  );
  const usageFromPause = compiled<{ u: string }>((q, a) =>
    q
      .insertInto('payout_usage')
      .columns(['subject', 'period', 'amount'])
      .expression((eb) => eb.selectFrom('payout_pauses').select((s) => [s.ref('user_id').as('subject'), s.val('p').as('period'), s.val(1).as('amount')]).where('user_id', '=', a.u)),
  );
  const pausesOf = compiled<{ u: string }, { user_id: string }>((q, a) => q.selectFrom('payout_pauses').select('user_id').where('user_id', 'like', a.u));
  const periods = { d: '2026-01-01', m: '2026-01', x: 'x', y: 'y' };

  it('are read back and committed by their transaction, counted, and never sent beside a write to a table they write or read', async () => {
    const t = await startTestApp();
    try {
      const store = t.app.ctx.store;
      const counts: number[] = [];
      await store.transaction(async (tx) => {
        await pause.defer(tx, { user_id: 'dw_a', paused_at: at });
        await addUsage.defer(tx, { s: 'dw', ...periods, amount: 100 });
        // Same table as a held write: it must see the first insert, not run beside it in one snapshot.
        await addUsage.defer(tx, { s: 'dw', ...periods, amount: 50 }, (n) => counts.push(n));
        await pauseOnce.defer(tx, { user_id: 'dw_a' }, (n) => counts.push(n));
        await pauseOnce.defer(tx, { user_id: 'dw_b' }, (n) => counts.push(n));
        // Reads a table a held write changed: it must run after that write, not beside it.
        await pauseOnce.defer(tx, { user_id: 'dw_c' });
        await usageFromPause.defer(tx, { u: 'dw_c' }, (n) => counts.push(n));
        expect((await usageOf.all(tx, { s: 'dw' })).map((r) => Number(r.amount))).toEqual([150, 150, 150, 150]);
        expect(await usageOf.all(tx, { s: 'dw_c' })).toHaveLength(1);
        expect(await pausesOf.all(tx, { u: 'dw_%' })).toHaveLength(3);
      });
      expect(counts).toEqual([4, 0, 1, 1]);
      expect(await pausesOf.all(store.db, { u: 'dw_%' })).toHaveLength(3);
    } finally {
      await t.close();
    }
  });

  it('roll back with their transaction, leave nothing held on the connection, and fail the transaction when one fails', async () => {
    const t = await startTestApp();
    try {
      const store = t.app.ctx.store;
      await expect(
        store.transaction(async (tx) => {
          await pause.defer(tx, { user_id: 'rb_a', paused_at: at });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      // Every pooled connection runs a transaction: none may send a write held for the rolled-back one.
      await Promise.all(Array.from({ length: 12 }, (_, i) => store.transaction((tx) => pause.run(tx, { user_id: `rb_n${i}`, paused_at: at }))));
      expect(await pausesOf.all(store.db, { u: 'rb_a' })).toEqual([]);

      await pause.run(store.db, { user_id: 'rb_taken', paused_at: at });
      const held = store.dialect === 'postgres';
      let deferCallReturned = false;
      await expect(
        store.transaction(async (tx) => {
          await addUsage.defer(tx, { s: 'rb', ...periods, amount: 1 });
          await strictPause.defer(tx, { user_id: 'rb_taken', paused_at: at });
          deferCallReturned = true;
        }),
      ).rejects.toThrow(/unique|duplicate|constraint/i);
      // Held on PostgreSQL, so the error comes at COMMIT; at once on SQLite.
      expect(deferCallReturned).toBe(held);
      expect(await usageOf.all(store.db, { s: 'rb' })).toEqual([]);
      await expect(pause.defer(store.db, { user_id: 'rb_x', paused_at: at })).resolves.toBeUndefined();
      expect(await pausesOf.all(store.db, { u: 'rb_x' })).toHaveLength(1);
      await expect(usageOf.defer(store.db, { s: 'rb' })).rejects.toThrow(/only a write/);
      const literal = compiled<{ u: string }>((q, a) => q.updateTable('payout_pauses').set({ paused_at: sql.lit('$1') }).where('user_id', '=', a.u));
      await expect(literal.defer(store.db, { u: 'rb_x' })).rejects.toThrow(/only a write/);
    } finally {
      await t.close();
    }
  });
});

/**
 * `readTogether` (issue 13): inside a PostgreSQL transaction the reads travel as one round trip after what the
 * transaction holds; elsewhere they run one by one. Either way each read answers what it would alone, in order.
 */
describe('reads sent together', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const pause = compiledInsert('payout_pauses', { user_id: true, paused_at: true });
  const pausesLike = compiled<{ u: string }, { user_id: string }>((q, a) => q.selectFrom('payout_pauses').select('user_id').where('user_id', 'like', a.u).orderBy('user_id'));
  const pauseOf = compiled<{ u: string }, { paused_at: string }>((q, a) => q.selectFrom('payout_pauses').select('paused_at').where('user_id', '=', a.u));
  // Fails as it runs, after its statement was accepted: division by zero on PostgreSQL, malformed JSON on SQLite.
  const broken = (dialect: string) =>
    compiled<{ u: string }, { n: number }>((q, a) =>
      q.selectFrom('payout_pauses').select((dialect === 'postgres' ? sql<number>`1 / 0` : sql<number>`json('{')`).as('n')).where('user_id', '=', a.u),
    );

  it('answer each read in order, see the transaction’s held writes, and match `runRead`', async () => {
    const texts: string[] = [];
    const t = await startTestApp({ deps: { onQuery: (text) => void texts.push(text) } });
    try {
      const store = t.app.ctx.store;
      await pause.run(store.db, { user_id: 'rt_a', paused_at: at });
      const ids = pausesLike.read({ u: 'rt_%' }, (rows) => rows.map((r) => r.user_id));
      const when = (u: string) => pauseOf.read({ u }, ([row]) => row?.paused_at ?? null);
      const [inside, a, none] = await store.transaction(async (tx) => {
        await pause.defer(tx, { user_id: 'rt_b', paused_at: at });
        texts.length = 0;
        return readTogether(tx, [ids, when('rt_a'), when('nobody')]);
      });
      expect(inside).toEqual(['rt_a', 'rt_b']);
      expect(a).toBe(at);
      expect(none).toBeNull();
      // The store's observer sees each read as a statement of its own (the query-plan test relies on it).
      expect(texts.filter((s) => s.includes('payout_pauses') && s.startsWith('select'))).toHaveLength(3);
      expect(await runRead(store.db, ids)).toEqual(['rt_a', 'rt_b']);
      expect(await readTogether(store.db, [when('rt_b'), ids])).toEqual([at, ['rt_a', 'rt_b']]);
    } finally {
      await t.close();
    }
  });

  it('fail the transaction when one read fails, roll back its held writes, and leave the connection clean', async () => {
    const t = await startTestApp();
    try {
      const store = t.app.ctx.store;
      await pause.run(store.db, { user_id: 'rf_a', paused_at: at });
      await expect(
        store.transaction(async (tx) => {
          await pause.defer(tx, { user_id: 'rf_b', paused_at: at });
          return readTogether(tx, [pausesLike.read({ u: 'rf_%' }, (r) => r), broken(store.dialect).read({ u: 'rf_a' }, (r) => r)]);
        }),
      ).rejects.toThrow(/division by zero|malformed JSON/i);
      expect(await pausesLike.all(store.db, { u: 'rf_%' })).toEqual([{ user_id: 'rf_a' }]);
      // Every pooled connection runs a transaction afterwards: none may carry anything of the failed one.
      const after = await Promise.all(
        Array.from({ length: 12 }, () => store.transaction((tx) => readTogether(tx, [pausesLike.read({ u: 'rf_%' }, (r) => r.length)]))),
      );
      expect(after).toEqual(Array.from({ length: 12 }, () => [1]));
    } finally {
      await t.close();
    }
  });
});

describe('statements over a list', () => {
  it('pad a list to the next power of two (at least 2) with its last value, split past 128, and run nothing for none', async () => {
    const texts: string[] = [];
    const t = await startTestApp({ deps: { onQuery: (text) => void texts.push(text) } });
    try {
      const db = t.app.ctx.store.db;
      const pause = compiledInsert('payout_pauses', { user_id: true, paused_at: true });
      for (const u of ['usr_a', 'usr_b', 'usr_c']) await pause.run(db, { user_id: u, paused_at: '2026-01-01T00:00:00.000Z' });
      const byUsers = compiledForList<{ at: string }, { user_id: string }>((q, a, users) =>
        q.selectFrom('payout_pauses').select('user_id').where('user_id', 'in', users).where('paused_at', '=', a.at),
      );
      const at = '2026-01-01T00:00:00.000Z';
      const slotsIn = (text: string) => (text.match(/\?|\$\d+/g) ?? []).length - 1; // one for `at`
      texts.length = 0;
      expect(await byUsers.all(db, ['usr_a'], { at })).toEqual([{ user_id: 'usr_a' }]);
      expect((await byUsers.all(db, ['usr_a', 'usr_b', 'usr_c'], { at })).map((r) => r.user_id).sort()).toEqual(['usr_a', 'usr_b', 'usr_c']);
      expect((await byUsers.all(db, Array.from({ length: 65 }, (_, i) => (i === 64 ? 'usr_b' : `nobody${i}`)), { at })).length).toBe(1);
      expect(texts.map(slotsIn)).toEqual([2, 4, 128]);
      texts.length = 0;
      const many = Array.from({ length: 130 }, (_, i) => (i < 3 ? ['usr_a', 'usr_b', 'usr_c'][i]! : `nobody${i}`));
      expect((await byUsers.all(db, many, { at })).length).toBe(3);
      expect(texts.map(slotsIn)).toEqual([128, 2]);
      texts.length = 0;
      expect(await byUsers.all(db, [], { at })).toEqual([]);
      expect(texts).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
