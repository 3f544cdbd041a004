import type { BatchItem } from './postgres-batch.js';

/** What one batch answers per statement (node-postgres's result objects). */
type Results = ReadonlyArray<{ rows: unknown[]; rowCount: number | null }>;

/** Sends statements as one batch on one connection (a wrapped client's `runBatch`). */
export type SendBatch = (items: BatchItem[]) => Promise<Results>;

interface Waiting {
  send: SendBatch;
  item: BatchItem;
  resolve(r: Results[number]): void;
  reject(e: unknown): void;
}

/** Reads in one shared batch at most; more go out as further batches, side by side. */
const PIPELINE_MAX = 64;

/** Plain reads: no row lock, no function call that could write or wait. */
const LOCKING = /\bfor\s+(?:update|share|no\s+key\s+update|key\s+share)\b/i;
const plain = new Map<string, boolean>();
const PLAIN_CACHE_MAX = 500;

/** Whether `text` is a read that may share a round trip with other callers' reads. */
export function isSharedRead(text: string): boolean {
  let yes = plain.get(text);
  if (yes === undefined) {
    yes = /^select\s/i.test(text) && !LOCKING.test(text) && !text.includes(';');
    if (plain.size < PLAIN_CACHE_MAX) plain.set(text, yes);
  }
  return yes;
}

/**
 * Lone reads of concurrent requests, outside any transaction, share one round trip (issue 13). On these machines
 * each round trip costs each side a send, a wake-up and a receive, and that rather than the reads' own work was
 * most of a request's CPU: an API key's check, an idempotency key's lookup, a balance. The reads asked for during
 * one turn of the event loop are sent together, at the end of it, in one batch on the first caller's connection
 * (the other callers' connections wait idle, checked out as before); the server runs them in order and answers
 * them in one write.
 *
 * One batch is one implicit transaction on the server. That changes nothing a plain read sees: each statement
 * still takes its own snapshot (read committed), and reads take no row locks. If the batch fails, each read is
 * sent again alone on its own caller's connection, so one bad read, or a lost connection, answers only its own
 * caller; reading twice is harmless.
 */
export class ReadPipeline {
  private waiting: Waiting[] = [];

  read(send: SendBatch, item: BatchItem): Promise<Results[number]> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.flush());
      this.waiting.push({ send, item, resolve, reject });
    });
  }

  private flush(): void {
    const all = this.waiting;
    this.waiting = [];
    for (let i = 0; i < all.length; i += PIPELINE_MAX) void this.run(all.slice(i, i + PIPELINE_MAX));
  }

  private async run(group: Waiting[]): Promise<void> {
    if (group.length === 1) {
      const w = group[0]!;
      return w.send([w.item]).then((r) => w.resolve(r[0]!), w.reject);
    }
    let results: Results;
    try {
      results = await group[0]!.send(group.map((w) => w.item));
    } catch {
      for (const w of group) w.send([w.item]).then((r) => w.resolve(r[0]!), w.reject);
      return;
    }
    group.forEach((w, i) => w.resolve(results[i]!));
  }
}
