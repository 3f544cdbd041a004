import { describe, expect, it } from 'vitest';
import { fallbackStore } from './rate-limit-store.js';

type Counted = { current: number; ttl: number };

/** The in-process counters (no Redis): a fixed window per key, and at most 5,000 keys, the least recently counted going first. */
describe('in-process rate-limit counters', () => {
  const open = () => {
    const Store = fallbackStore(null, 'test');
    const store = new Store() as unknown as { incr(k: string, cb: (e: Error | null, r?: Counted) => void, w: number): void };
    return (key: string, windowMs = 60_000) =>
      new Promise<Counted>((resolve, reject) => store.incr(key, (e, r) => (e ? reject(e) : resolve(r!)), windowMs));
  };

  it('counts per key within the window and starts again after it', async () => {
    const incr = open();
    expect((await incr('a')).current).toBe(1);
    expect((await incr('a')).current).toBe(2);
    expect((await incr('b')).current).toBe(1);
    const short = await incr('c', 1);
    expect(short.current).toBe(1);
    await new Promise((r) => setTimeout(r, 5));
    expect((await incr('c', 1)).current).toBe(1);
  });

  it('holds at most 5,000 keys: a flood of new keys forgets the least recently counted, never one counted since', async () => {
    const incr = open();
    for (let i = 0; i < 3; i++) await incr('busy');
    await incr('idle');
    for (let i = 0; i < 4_998; i++) {
      await incr(`flood-${i}`);
      if (i % 1_000 === 0) await incr('busy');
    }
    // Full now; one more key pushes out the least recently counted, 'idle', while 'busy' keeps its count.
    await incr('one-more');
    expect((await incr('busy')).current).toBe(9);
    expect((await incr('idle')).current).toBe(1);
  });
});
