import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** SQLite's own `wal_autocheckpoint`, which the main connection goes back to if the checkpointer fails. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
/** WAL pages after which the main connection checkpoints by itself: only if the checkpointer fell far behind. */
export const MAIN_AUTOCHECKPOINT_PAGES = 20_000;
/** How often the checkpointer looks for committed pages to copy when the last look found none. */
const IDLE_INTERVAL_MS = 100;

// The worker is plain CommonJS given as text, so the same code runs under `tsx`, vitest and the built service.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = FULL');
let stopping = false;
let copied = -1;
let passes = 0;
parentPort.on('message', (m) => {
  if (m === 'passes') parentPort.postMessage({ passes });
  else stopping = true;
});
function pass() {
  if (stopping) { db.close(); parentPort.close(); return; }
  passes++;
  let more = false;
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    // Frames were committed while this pass copied: go again at once, so the log can start over; but not while
    // a reader pins the log and a pass copies nothing new.
    more = r.busy === 0 && r.checkpointed < r.log && r.checkpointed !== copied;
    copied = r.checkpointed;
  } catch (e) {
    // Another connection is checkpointing, or the file is going away: try again at the next pass.
  }
  setTimeout(pass, more ? 0 : workerData.idleMs);
}
pass();
`;

/**
 * Checkpoints the SQLite WAL of `file` on a worker thread. A checkpoint copies committed pages from
 * the WAL into the database file and fsyncs it; run by SQLite inside the COMMIT that crossed the WAL's size
 * limit, it blocked the event loop for up to 1.1 s in a soak of 100,000 payouts (the slowest requests and
 * confirmations of the run). Here the main connection only checkpoints as a fallback, past
 * MAIN_AUTOCHECKPOINT_PAGES, and a second connection in a worker copies the pages as they are committed.
 * Durability does not depend on it: nobody is answered before their commit is synced to the WAL, and a
 * checkpoint syncs the WAL itself before it copies anything (SQLite does so at any `synchronous` but OFF). If the
 * worker fails or exits, `onFailure` is told, so the main connection can go back to checkpointing at SQLite's
 * usual size rather than let the log grow to the fallback's.
 */
export function startCheckpointer(
  file: string,
  onFailure: (err: unknown) => void,
): { stop(): Promise<void>; /** How many passes the worker has made (tests, diagnostics). */ passes(): Promise<number> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, idleMs: IDLE_INTERVAL_MS } });
  // Never keeps the process alive by itself.
  worker.unref();
  let stopping = false;
  let failed = false;
  const fail = (err: unknown) => {
    if (failed || stopping) return;
    failed = true;
    onFailure(err);
  };
  worker.on('error', fail);
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      fail(new Error(`the checkpoint worker exited (code ${code})`));
      resolve();
    }),
  );
  return {
    passes: () =>
      new Promise<number>((resolve) => {
        worker.once('message', (m: { passes: number }) => resolve(m.passes));
        worker.postMessage('passes');
      }),
    stop: async () => {
      stopping = true;
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
