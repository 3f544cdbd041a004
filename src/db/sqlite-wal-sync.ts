import { realpathSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

// Plain CommonJS given as text, so the same code runs under `tsx`, vitest and the built service.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
let fd = null;
parentPort.on('message', (id) => {
  try {
    const first = fd === null;
    if (first) fd = fs.openSync(workerData.wal, 'r+');
    fs.fdatasyncSync(fd);
    if (first) {
      // The log is a new file at each start: its directory entry must be on disk too, as FULL makes sure.
      const dir = fs.openSync(path.dirname(workerData.wal), 'r');
      try { fs.fsyncSync(dir); } finally { fs.closeSync(dir); }
    }
    parentPort.postMessage({ id, ok: true });
  } catch (e) {
    parentPort.postMessage({ id, ok: false, error: String(e && e.message || e) });
  }
});
`;

/**
 * Syncs the SQLite write-ahead log of `file` on a thread of its own, so the event loop goes on while the disk
 * flushes (`SQLITE_SYNC=background`). The main connection then commits with `synchronous=NORMAL`,
 * which writes each COMMIT's pages to the log without waiting for the disk; the group-commit driver answers nobody
 * before a sync that began after their COMMIT has finished, which is the promise `synchronous=FULL` makes.
 *
 * Why this holds: in WAL mode a COMMIT writes only the log (a checkpoint syncs the log before copying it into the
 * database file); SQLite removes the log only once no connection is left, and only shortens it with settings this
 * service does not use (`journal_size_limit`, TRUNCATE checkpoints), so one descriptor stays valid until the store
 * closes; SQLite takes no POSIX locks on the log, so this descriptor cannot drop any. The path is resolved as
 * SQLite resolves it, through symlinks. A thread of its own rather than libuv's pool: there, a few password hashes
 * (scrypt) would hold every answer back.
 */
export interface WalSyncer {
  sync(): Promise<void>;
  close(): Promise<void>;
}

export function walSyncer(file: string): WalSyncer {
  const worker = new Worker(WORKER, { eval: true, workerData: { wal: `${realpathSync(file)}-wal` } });
  // Held only while a sync is in flight, so an idle store never keeps the process alive.
  worker.unref();
  const pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let next = 0;
  let dead: Error | null = null;
  const settleAll = (e: Error) => {
    dead ??= e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('message', (m: { id: number; ok: boolean; error?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (pending.size === 0) worker.unref();
    if (m.ok) p?.resolve();
    else p?.reject(new Error(m.error));
  });
  worker.on('error', (e) => settleAll(e));
  worker.on('exit', () => settleAll(new Error('the log sync thread exited')));
  return {
    sync: () =>
      new Promise<void>((resolve, reject) => {
        if (dead) return reject(dead);
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage(id);
      }),
    close: async () => {
      dead ??= new Error('the store is closed');
      await worker.terminate();
    },
  };
}
