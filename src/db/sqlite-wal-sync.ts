import { closeSync, fdatasync, openSync } from 'node:fs';

/**
 * Syncs the SQLite write-ahead log of `file` on libuv's thread pool, so the event loop goes on while the disk
 * flushes (issue 13). The main connection commits with `synchronous=NORMAL`, which writes each COMMIT's pages to
 * the log without waiting for the disk; the group-commit driver answers nobody before a sync that began after
 * their COMMIT has finished, which is the promise `synchronous=FULL` makes, kept off the event loop.
 *
 * In WAL mode a COMMIT writes only the log (checkpoints copy it into the database file and sync both), and
 * SQLite deletes the log only when its last connection closes, so one descriptor opened at the first sync stays
 * valid until the store closes. SQLite takes no POSIX locks on the log, so this descriptor cannot drop any.
 */
export function walSyncer(file: string): { sync(): Promise<void>; close(): void } {
  let fd: number | null = null;
  return {
    sync: () =>
      new Promise<void>((resolve, reject) => {
        try {
          fd ??= openSync(`${file}-wal`, 'r+');
        } catch (e) {
          return reject(e);
        }
        fdatasync(fd, (err) => (err ? reject(err) : resolve()));
      }),
    close: () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
