import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/helpers.js';
import { compiled, compiledByShape, compiledForList, compiledInsert } from './compiled.js';
import { afterCommit } from './database.js';

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

/** A statement compiled once serves a transaction the store opened and one it did not (built every time then). */
describe('compiled statements in transactions', () => {
  it('run on the transaction they are given, roll back with it, and work on an executor the store did not hand out', async () => {
    const t = await startTestApp();
    try {
      const store = t.app.ctx.store;
      const pause = compiledInsert('payout_pauses', { user_id: true, paused_at: true });
      const count = compiled<{ u: string }, { n: number }>((q, a) => q.selectFrom('payout_pauses').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', a.u));
      await expect(
        store.transaction(async (tx) => {
          await pause.run(tx, { user_id: 'usr_x', paused_at: '2026-01-01T00:00:00.000Z' });
          expect(Number((await count.first(tx, { u: 'usr_x' }))!.n)).toBe(1);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(Number((await count.first(store.db, { u: 'usr_x' }))!.n)).toBe(0);
      // A transaction opened outside the store: no cached statement is assumed to fit it.
      await store.db.transaction().execute(async (tx) => {
        await pause.run(tx, { user_id: 'usr_y', paused_at: '2026-01-01T00:00:00.000Z' });
      });
      expect(Number((await count.first(store.db, { u: 'usr_y' }))!.n)).toBe(1);
      const seen: string[] = [];
      await store.transaction(async (tx) => {
        await new Promise<void>((resolve) => {
          afterCommit(tx, () => {
            seen.push('committed');
          });
          resolve();
        });
        expect(seen).toEqual([]);
      });
      expect(seen).toEqual(['committed']);
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
