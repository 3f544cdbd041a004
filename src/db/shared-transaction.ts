import { mapBounded } from '../shared/jobs.js';
import type { Tx } from './database.js';

/** Runs a function in a transaction of its own and answers what it returned. */
export type TransactionRunner = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

/** Runs a function in a transaction that other callers' functions may share; `order` is its first lock's key. */
export interface SharedTransactionRunner {
  <T>(fn: (tx: Tx) => Promise<T>, order?: string): Promise<T>;
  /** Since start: members that ran in a shared transaction, and members run again alone after one rolled back. */
  readonly counts: { shared: number; rerun: number };
}

interface Member {
  fn: (tx: Tx) => Promise<unknown>;
  order: string;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

/** Most members one shared transaction takes; the rest wait for the next. */
const MAX_SHARED_MEMBERS = 64;

/** Thrown inside a shared transaction to roll it back once a member failed; never reaches a caller. */
class MemberFailed extends Error {}

/**
 * Shared transactions of one lane that may run at once. A lane runs its members one round trip after another, so
 * under load one transaction at a time caps it at one member per round trip; a second one starts once this many
 * callers wait. Both take their locks in the same order, so they cannot deadlock each other.
 */
const MAX_RUNNING = 2;
const SECOND_WHEN_WAITING = 8;

/** Members run again alone at most this many at a time, so a failed batch does not take every pooled connection. */
const RERUN_PARALLEL = 4;

/**
 * Whether the server surely did not commit: the failure came before the COMMIT was sent, or the server answered
 * with an SQLSTATE (it refused, and rolled back). A connection lost during the COMMIT leaves the outcome unknown.
 */
const surelyRolledBack = (err: unknown, committing: boolean) =>
  !committing || /^[0-9A-Z]{5}$/.test(String((err as { code?: unknown })?.code ?? ''));

const byOrder = (a: Member, b: Member) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0);

/**
 * Short transactions that many requests run at once (a payout's decision, its move at the sandbox bank, the
 * record of its submission) share one transaction on PostgreSQL, as SQLite's group commit shares commits
 * (issue 13). While a shared transaction runs, the callers that arrive wait, then run together in the next one,
 * one after another on its connection, in `order`, and commit once (a second one starts beside the first when
 * many wait, `MAX_RUNNING`). Under load one BEGIN and
 * one COMMIT, with its flush, serve dozens of them, and each member's held writes travel with the next member's
 * first statement: a member costs one round trip instead of two. A caller that finds nobody running or waiting
 * runs at once, in a transaction of its own.
 *
 * A member must be a transaction that could run on its own with the same effect. What it reads, a member before
 * it may have written, exactly as if that one had committed first (two decisions of one user see each other,
 * as they would one after the other). It must not lock rows that its caller holds or waits for outside it, and
 * it must not mind running again after a failure that rolled everything back. If any member fails, or the
 * server refuses the COMMIT, the shared transaction is rolled back and every member runs again in a transaction
 * of its own, so each caller gets its own outcome, as if it had never shared. If the connection is lost during
 * the COMMIT, nobody knows whether it committed: every member's caller gets that error, as it would alone.
 *
 * Members run in `order`, the key of the rows they lock first (a user's, say, for rows that all belong to that
 * user), so that two shared transactions, on one node or two, take their locks in one order; should anything
 * else deadlock with one, PostgreSQL aborts one side, and if that is the shared transaction its members run
 * again, alone.
 */
export function sharedTransactions(
  run: TransactionRunner,
  opts: {
    /**
     * Runs first in each shared transaction (not in one of a lone caller): PostgreSQL's lock timeout, so that a
     * member stuck behind a lock held elsewhere fails the shared transaction, whose members then run alone, and
     * only its own caller waits on.
     */
    begin?: (tx: Tx) => Promise<unknown>;
  } = {},
): SharedTransactionRunner {
  let waiting: Member[] = [];
  let running = 0;
  const counts = { shared: 0, rerun: 0 };

  const alone = (m: Member) => run(m.fn).then(m.resolve, m.reject);

  const together = async (members: Member[]) => {
    members.sort(byOrder);
    counts.shared += members.length;
    const results: unknown[] = [];
    let committing = false;
    try {
      await run(async (tx) => {
        try {
          await opts.begin?.(tx);
        } catch {
          throw new MemberFailed();
        }
        for (const m of members) {
          try {
            results.push(await m.fn(tx));
          } catch {
            throw new MemberFailed();
          }
        }
        committing = true;
      });
    } catch (err) {
      if (!surelyRolledBack(err, committing)) {
        // It may have committed: running them again could do twice what they did. Each caller hears of the
        // failure, as it would of its own transaction's.
        for (const m of members) m.reject(err);
        return;
      }
      counts.rerun += members.length;
      // Not waited for: a member that runs again alone may wait on a lock held elsewhere for as long as it is
      // held, and the callers that arrive meanwhile must not wait behind it.
      void mapBounded(members, RERUN_PARALLEL, alone);
      return;
    }
    members.forEach((m, i) => m.resolve(results[i]));
  };

  const drain = async () => {
    running++;
    try {
      while (waiting.length > 0) {
        const next = waiting.slice(0, MAX_SHARED_MEMBERS);
        waiting = waiting.slice(next.length);
        if (next.length === 1) await alone(next[0]!);
        else await together(next);
      }
    } finally {
      running--;
    }
  };

  const runner = <T>(fn: (tx: Tx) => Promise<T>, order = ''): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ fn, order, resolve: resolve as (v: unknown) => void, reject });
      if (running === 0 || (running < MAX_RUNNING && waiting.length >= SECOND_WHEN_WAITING)) void drain();
    });
  return Object.assign(runner, { counts });
}

/** A runner whose callers never share: each runs in a transaction of its own (SQLite, and a store's default). */
export function unshared(run: TransactionRunner): SharedTransactionRunner {
  return Object.assign(<T>(fn: (tx: Tx) => Promise<T>) => run(fn), { counts: { shared: 0, rerun: 0 } });
}
