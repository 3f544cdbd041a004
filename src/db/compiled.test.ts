import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/helpers.js';
import { compiled, compiledByShape, compiledInsert } from './compiled.js';

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
