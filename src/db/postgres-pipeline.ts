import { failureOf, type BatchItem } from './postgres-batch.js';

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

/**
 * Reads in one shared batch at most; more go out as further batches, side by side on other connections. The
 * server runs a batch's reads one after another, so this also bounds how long a read waits behind the others.
 */
const PIPELINE_MAX = 16;

const LOCKING = /\bfor\s+(?:update|share|no\s+key\s+update|key\s+share)\b/i;
/** Clauses of reads that may touch many rows: such a read would hold up the cheap ones sent with it. */
const BROAD = /\b(?:limit|offset|order\s+by|group\s+by|having|union|intersect|except|join|distinct|returning)\b/i;
/** Words that may stand before a parenthesis in a plain filter: grouping, or a list of values after `in`. */
const GROUPING = new Set(['where', 'and', 'or', 'not', 'in']);
const plain = new Map<string, boolean>();
const PLAIN_CACHE_MAX = 500;

/**
 * Whether `text` is a read that may share a round trip with other callers' reads: a `select` of columns filtered
 * by plain conditions, the shape of a lookup by key. No row lock; no function call (which could write, wait, use
 * a sequence or the session, and would run on another caller's connection); no subquery, join, ordering or limit
 * (a read that may be slow). Anything else goes on its own connection as before.
 */
export function isSharedRead(text: string): boolean {
  let yes = plain.get(text);
  if (yes === undefined) {
    yes = /^select\s/i.test(text) && !text.includes(';') && !LOCKING.test(text) && !BROAD.test(text) && onlyGroupingParentheses(text);
    if (plain.size < PLAIN_CACHE_MAX) plain.set(text, yes);
  }
  return yes;
}

function onlyGroupingParentheses(text: string): boolean {
  for (const m of text.matchAll(/(\S*)\s*\(\s*(\S*)/g)) {
    const before = m[1]!.toLowerCase();
    if (!(GROUPING.has(before) || before === '(' || before.endsWith('(')) || /^\(?select\b/i.test(m[2]!)) return false;
  }
  return true;
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
 * still takes its own snapshot (read committed), and reads take no row locks. If the batch fails, the failing
 * read answers its caller with the error, the reads before it answer with their rows, and the reads after it,
 * which the server skipped, are sent again alone on their own callers' connections: one bad read, or a lost
 * connection, fails only its own caller, and no read the server ran is sent again (but after a row the client
 * could not parse, when every read is sent again alone).
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
    if (group.length === 1) return alone(group[0]!);
    let results: Results;
    try {
      results = await group[0]!.send(group.map((w) => w.item));
    } catch (err) {
      // The reads before the failing one answered; it answers its caller with the error; those after it never ran
      // and go again, each alone. Without that account (a row the client could not parse) every read goes again.
      const failed = failureOf(err);
      group.forEach((w, i) => {
        if (failed && i < failed.index) w.resolve(failed.results[i]!);
        else if (failed && i === failed.index) w.reject(err);
        else void alone(w);
      });
      return;
    }
    group.forEach((w, i) => w.resolve(results[i]!));
  }
}

/** A read sent on its own caller's connection. */
function alone(w: Waiting): Promise<void> {
  return w.send([w.item]).then((r) => w.resolve(r[0]!), w.reject);
}
