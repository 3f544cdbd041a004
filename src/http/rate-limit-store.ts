import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;
interface CounterStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
}
type StoreCtor = new (...args: unknown[]) => CounterStore;

// The plugin's own counters (LRU in process, Lua in Redis); it ships them without exports or types. The plugin
// version is pinned in package.json.
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreCtor;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreCtor;

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
  const local = new LocalStore(false, false);
  const shared = link ? new RedisStore(false, false, link.client, namespace) : null;
  const run = (method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number) => {
    if (!shared || !link!.usable()) return local[method](key, cb, timeWindow, max);
    shared[method](
      key,
      (err, res) => {
        if (!err) return cb(null, res);
        link!.commandFailed(err);
        local[method](key, cb, timeWindow, max);
      },
      timeWindow,
      max,
    );
  };
  const store = {
    incr: (key: string, cb: Callback, timeWindow: number, max: number) => run('incr', key, cb, timeWindow, max),
    read: (key: string, cb: Callback, timeWindow: number, max: number) => run('read', key, cb, timeWindow, max),
    // One store for every route: the budget is per user or address, not per route.
    child: () => store,
  };
  // The plugin constructs its store with `new`; a function returning an object satisfies that.
  return function FallbackStore() {
    return store;
  } as unknown as new () => FastifyRateLimitStore;
}
