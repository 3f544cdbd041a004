import type { Executor } from '../../db/database.js';
import { afterCommit } from '../../db/database.js';
import { onEventRecorded, type RecordedEvent } from '../events/events.service.js';
import { liveState, type LiveState } from './live.state.js';

/** One open stream: told the state when it changed. */
interface Listener {
  send(state: LiveState): void;
  last: string;
}

/**
 * The dashboard's live updates (one stream per open tab) on one node. A user's state is read again when
 * something of theirs committed on this node (the outbox's events, approvals created or decided: woken after
 * the commit, a few milliseconds later) and on a slow poll, which is how changes made on another node sharing
 * the database arrive. A stream is sent the state only when it changed, so an idle dashboard costs the server
 * a few indexed reads per poll and the browser nothing.
 */
export class LiveHub {
  private readonly byUser = new Map<string, Set<Listener>>();
  private readonly due = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Executor,
    private readonly pollMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Adds a stream; it is sent the current state at once. Returns the removal. */
  async add(userId: string, send: (state: LiveState) => void): Promise<() => void> {
    const l: Listener = { send, last: '' };
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(l);
    this.pollTimer ??= setInterval(() => this.wakeAll(), this.pollMs).unref();
    const remove = () => {
      set.delete(l);
      if (set.size === 0) this.byUser.delete(userId);
      if (this.byUser.size === 0 && this.pollTimer) {
        clearInterval(this.pollTimer);
        this.pollTimer = null;
      }
    };
    try {
      const state = await liveState(this.db, userId);
      l.last = JSON.stringify(state);
      send(state);
    } catch (err) {
      remove();
      throw err;
    }
    return remove;
  }

  /** Something of this user's changed: read their state again soon (wakes within 50 ms coalesce). */
  wake(userId: string): void {
    if (!this.byUser.has(userId)) return;
    this.due.add(userId);
    this.flushTimer ??= setTimeout(() => void this.flush(), 50);
  }

  private wakeAll(): void {
    for (const userId of this.byUser.keys()) this.wake(userId);
  }

  private async flush(): Promise<void> {
    this.flushTimer = null;
    const users = [...this.due];
    this.due.clear();
    for (const userId of users) {
      const set = this.byUser.get(userId);
      if (!set) continue;
      try {
        const state = await liveState(this.db, userId);
        const text = JSON.stringify(state);
        for (const l of set) {
          if (l.last === text) continue;
          l.last = text;
          l.send(state);
        }
      } catch (err) {
        this.onError(err);
      }
    }
  }

  get streams(): number {
    let n = 0;
    for (const s of this.byUser.values()) n += s.size;
    return n;
  }

  close(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.pollTimer = this.flushTimer = null;
    this.byUser.clear();
    this.due.clear();
  }
}

/**
 * The hubs of this process. Module-level because the outbox subscriber runs inside `recordEvent`, which sees only
 * an executor (as the webhook outbox does); in production a process runs one app.
 */
const hubs = new Set<LiveHub>();

/** Wakes every hub for this user once `db`'s transaction committed (at once outside a transaction). */
export function wakeLiveAfterCommit(db: Executor, userId: string): void {
  if (hubs.size === 0) return;
  afterCommit(db, () => {
    for (const h of hubs) h.wake(userId);
  });
}

const onEvent = async (db: Executor, _clock: unknown, e: RecordedEvent): Promise<void> => wakeLiveAfterCommit(db, e.userId);

/** Wires a hub to the outbox at composition; the undo removes it (the subscriber itself stays, holding no state). */
export function registerLiveHub(hub: LiveHub): () => void {
  onEventRecorded(onEvent);
  hubs.add(hub);
  return () => {
    hubs.delete(hub);
    hub.close();
  };
}
