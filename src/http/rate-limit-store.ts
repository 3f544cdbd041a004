import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;
interface CounterStore {
  incr(key: string, cb: Callback, timeWindow: number): void;
  read(key: string, cb: Callback, timeWindow: number): void;
}

/**
 * The counters, as the plugin's store interface asks: a fixed window per key, started by its first count and
 * lasting `timeWindow` ms; `ttl` is what is left of it. Ours rather than the plugin's own, which it ships only as
 * private files: this one keeps at most `capacity` keys in process, forgetting the least recently counted.
 */
class LocalCounters implements CounterStore {
  private readonly windows = new Map<string, { current: number; startedAt: number }>();
  constructor(private readonly capacity = 5_000) {}

  incr(key: string, cb: Callback, timeWindow: number): void {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.startedAt + timeWindow <= now) w = { current: 0, startedAt: now };
    w.current++;
    this.windows.delete(key); // a Map keeps insertion order: the least recently counted comes first
    this.windows.set(key, w);
    if (this.windows.size > this.capacity) this.windows.delete(this.windows.keys().next().value!);
    cb(null, { current: w.current, ttl: w.startedAt + timeWindow - now });
  }

  read(key: string, cb: Callback, timeWindow: number): void {
    const now = Date.now();
    const w = this.windows.get(key);
    if (!w || w.startedAt + timeWindow <= now) return cb(null, { current: 0, ttl: 0 });
    cb(null, { current: w.current, ttl: w.startedAt + timeWindow - now });
  }
}

// The same window in Redis, one script each so that every node counts alike (a key left without expiry by a
// crash between INCR and PEXPIRE gets one at its next count).
const INCR = `local c = redis.call('INCR', KEYS[1])
local t = redis.call('PTTL', KEYS[1])
if c == 1 or t < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) t = tonumber(ARGV[1]) end
return {c, t}`;
const READ = `local c = redis.call('GET', KEYS[1])
if not c then return {0, 0} end
local t = redis.call('PTTL', KEYS[1])
if t < 0 then t = 0 end
return {tonumber(c), t}`;

class RedisCounters implements CounterStore {
  constructor(
    private readonly client: Redis,
    private readonly namespace: string,
  ) {}

  incr(key: string, cb: Callback, timeWindow: number): void {
    this.eval(INCR, key, cb, timeWindow);
  }

  read(key: string, cb: Callback): void {
    this.eval(READ, key, cb);
  }

  private eval(script: string, key: string, cb: Callback, ...args: number[]): void {
    this.client.eval(script, 1, `${this.namespace}${key}`, ...args).then(
      (r) => {
        const [current, ttl] = r as [number, number];
        cb(null, { current: Number(current), ttl: Number(ttl) });
      },
      (err: Error) => cb(err),
    );
  }
}

/** After a failed Redis command, count in process for this long before trying Redis again. */
const COOLDOWN_MS = 5_000;

/**
 * D30: whether the shared counters can be used. Connection state comes from the client's events; a command
 * that fails on a connection that looks up (a hung server) also sends counting in process for a while.
 */
export class RedisLink {
  private connected = false;
  private failedUntil = 0;
  private wasUsable = true;

  constructor(
    readonly client: Redis,
    private readonly log: FastifyBaseLogger,
  ) {
    // The client connects while the store migrates, so it may be ready before this link listens.
    this.connected = client.status === 'ready';
    client.on('ready', () => {
      this.connected = true;
      this.failedUntil = 0;
      this.report();
    });
    client.on('close', () => {
      this.connected = false;
      this.report();
    });
    // Without a listener ioredis prints every failed reconnection; the transitions are logged by report().
    client.on('error', (err: Error) => this.log.debug({ err }, 'redis error'));
  }

  /** Resolves once connected, or after the first failure or `timeoutMs`: a dead Redis must not stop the start. */
  async settle(timeoutMs: number): Promise<void> {
    if (this.client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.client.off('ready', done).off('error', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.client.once('ready', done).once('error', done);
    });
    this.report();
  }

  usable(): boolean {
    return this.connected && Date.now() >= this.failedUntil;
  }

  commandFailed(err: Error): void {
    this.log.warn({ err }, 'redis command failed');
    this.failedUntil = Date.now() + COOLDOWN_MS;
    this.report();
  }

  private report(): void {
    const usable = this.usable();
    if (usable === this.wasUsable) return;
    this.wasUsable = usable;
    if (usable) this.log.info('redis reachable again: rate-limit counters are shared');
    else this.log.warn('redis unreachable: rate-limit counters are counted in process on this node until it returns');
  }
}

/**
 * The limiter's store: Redis while the link is usable, else (and on any Redis error) the in-process LRU, so the
 * limiter never fails a request (D30). Each node then enforces the budget on its own until Redis returns.
 */
export function fallbackStore(link: RedisLink | null, namespace: string) {
  const local = new LocalCounters();
  const shared = link ? new RedisCounters(link.client, namespace) : null;
  const run = (method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number) => {
    if (!shared || !link!.usable()) return local[method](key, cb, timeWindow);
    shared[method](
      key,
      (err, res) => {
        if (!err) return cb(null, res);
        link!.commandFailed(err);
        local[method](key, cb, timeWindow);
      },
      timeWindow,
    );
  };
  const store = {
    incr: (key: string, cb: Callback, timeWindow: number) => run('incr', key, cb, timeWindow),
    read: (key: string, cb: Callback, timeWindow: number) => run('read', key, cb, timeWindow),
    // One store for every route: the budget is per user or address, not per route.
    child: () => store,
  };
  // The plugin constructs its store with `new`; a function returning an object satisfies that.
  return function FallbackStore() {
    return store;
  } as unknown as new () => FastifyRateLimitStore;
}
