import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

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
parentPort.on('message', () => { stopping = true; });
function pass() {
  if (stopping) { db.close(); parentPort.close(); return; }
  let more = false;
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    // Frames were committed while this pass copied: go again at once, so the log can start over.
    more = r.busy === 0 && r.log > 0 && r.checkpointed > 0 && r.checkpointed < r.log;
  } catch (e) {
    // Another connection is checkpointing, or the file is going away: try again at the next pass.
  }
  setTimeout(pass, more ? 0 : workerData.idleMs);
}
pass();
`;

/**
 * Checkpoints the SQLite WAL of `file` on a worker thread (issue 13). A checkpoint copies committed pages from
 * the WAL into the database file and fsyncs it; run by SQLite inside the COMMIT that crossed the WAL's size
 * limit, it blocked the event loop for up to 1.1 s in a soak of 100,000 payouts (the slowest requests and
 * confirmations of the run). Here the main connection only checkpoints as a fallback, past
 * MAIN_AUTOCHECKPOINT_PAGES, and a second connection in a worker copies the pages as they are committed.
 * Durability does not depend on it: every commit is already synced to the WAL (`synchronous=FULL`).
 */
export function startCheckpointer(file: string): { stop(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, idleMs: IDLE_INTERVAL_MS } });
  // Never keeps the process alive by itself, and a failure only means the main connection checkpoints again.
  worker.unref();
  worker.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    stop: async () => {
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
