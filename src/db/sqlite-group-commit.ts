import { realpathSync } from 'node:fs';
import type SQLite from 'better-sqlite3';
import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Dialect,
  type DatabaseConnection,
  type Driver,
  type Kysely,
} from 'kysely';
import { GroupConnection } from './sqlite-group-connection.js';
import { StoreUnavailable } from './store-errors.js';

/** Units (transactions or lone statements) one commit may cover, so a batch's latency stays bounded under load. */
const MAX_BATCH_UNITS = 256;
/**
 * Open drivers per database file in this process: the service has one, tests that run two nodes or watch a store
 * have more. A connection's busy wait blocks the whole event loop, so a batch another driver here left open would
 * never commit while this one waits for its lock. So while a file has several drivers, a lone write commits by
 * itself as SQLite would, rather than hold the lock across turns; and before writing, a driver commits the open
 * batches of the others whose connection no unit holds. (A transaction of another driver still open makes the
 * writer wait up to `busy_timeout`, as it always did.)
 */
const driversPerFile = new Map<string, Set<GroupCommitSqliteDriver>>();

/** The file as SQLite resolves it, or null for a temporary database that has no name. */
function fileOf(db: SQLite.Database): string | null {
  try {
    return realpathSync(db.name);
  } catch {
    return null;
  }
}

/** One physical SQLite transaction shared by the units that ran inside it; they learn its outcome together. */
class Batch {
  units = 0;
  /** Commits at the next release rather than take more units (full, or a unit of it was undone). */
  closing = false;
  readonly durable: Promise<void>;
  resolve!: () => void;
  reject!: (e: unknown) => void;
  constructor() {
    this.durable = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A batch nobody waits for (every unit failed on its own) must not surface as an unhandled rejection.
    this.durable.catch(() => undefined);
  }
}

/**
 * Group commit for the embedded store. better-sqlite3 is synchronous and SQLite has one writer, so every unit of
 * work already runs one at a time on the single connection; what made a payout slow was its COMMITs, each an
 * fsync (`synchronous=FULL` in WAL mode) that blocks the event loop for ~0.4 ms or more.
 *
 * Here a transaction that starts while another unit's work is not yet committed joins that physical transaction.
 * Its own failure undoes only its own work: the physical transaction is rolled back and the writes of the units
 * before it are run again from the batch's redo log (see undoUnit). The physical COMMIT runs once the event loop
 * has nothing more to add (a `setImmediate` after the connection went idle), when a batch is full, or at the
 * release of a unit that was undone. Durability is not traded: a unit's caller gets its answer — success, or
 * even a read — only after the COMMIT that made what it saw durable; if that COMMIT fails, every unit of the batch
 * fails. Statements outside a transaction that run while a batch is open join it the same way, and a lone write
 * with no batch open starts one (SQLite undoes a failed statement by itself, so it needs no undo of ours).
 *
 * With `syncLog` (`SQLITE_SYNC=background`, `sqlite-wal-sync.ts`) the COMMIT itself does not sync (`synchronous=
 * NORMAL`): the log is synced on another thread while the event loop goes on, and a unit is answered once a
 * sync that began after its batch's COMMIT has finished. That keeps FULL's promise for everyone who gets an answer,
 * but the sync, about 0.6 ms of every COMMIT here, no longer stops the process.
 */
export class GroupCommitSqliteDriver implements Driver {
  private readonly queue: Array<() => void> = [];
  private locked = false;
  private batch: Batch | null = null;
  /** The batch the unit holding the connection ran in, or whose durability what it reads depends on. */
  private unitBatch: Batch | null = null;
  private commitScheduled = false;
  /** Where the unit holding the connection began in the batch's redo log. */
  private unitStart = 0;
  private readonly connection: GroupConnection;
  private readonly syncLog: (() => Promise<void>) | null;
  private readonly onCommit?: (units: number) => void;
  private readonly file: string | null;
  private peers: Set<GroupCommitSqliteDriver> | null = null;
  /** Committed batches that wait for the next sync of the log to start. */
  private committed: Batch[] = [];
  /** The latest committed batch whose sync has not finished: a unit that can see its rows waits for it. */
  private unsynced: Batch | null = null;
  /** The sync in flight, if any: one at a time. */
  private syncing: Promise<void> | null = null;
  /** Set when a sync of the log failed: nothing committed since can be promised durable, so nothing is answered. */
  private broken: Error | null = null;

  constructor(private readonly db: SQLite.Database, opts: GroupCommitOptions = {}) {
    this.syncLog = opts.syncLog ?? null;
    this.connection = new GroupConnection(db, this.syncLog ? () => this.autocommitted() : null, (lone) => this.beforeWrite(lone));
    this.onCommit = opts.onCommit;
    this.file = db.memory ? null : fileOf(db);
  }

  /** Kysely calls init before the first query and destroy only after init, so the registry cannot keep a driver. */
  async init(): Promise<void> {
    if (!this.file) return;
    let peers = driversPerFile.get(this.file);
    if (!peers) driversPerFile.set(this.file, (peers = new Set()));
    peers.add(this);
    this.peers = peers;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // The lock is handed from releaser to the next waiter directly, so nobody can slip in between.
    if (this.locked) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.locked = true;
    if (this.broken) {
      // A batch left open by the unit before this one is refused now, or its units would wait forever.
      if (this.batch) this.commitBatch();
      this.handOn();
      throw this.broken;
    }
    // With no batch open, what this unit reads may still be only committed, not yet synced.
    this.unitBatch = this.batch ?? this.unsynced;
    if (this.batch) this.batch.units++;
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    // Only a session (`db.connection()`) that wrote in a batch SQLite then ended can find one ended here.
    if (this.batch && !this.db.inTransaction) this.refuseEndedBatch();
    if (!this.batch) this.openBatch();
    this.unitStart = this.connection.redo!.length;
  }

  async commitTransaction(): Promise<void> {}

  async rollbackTransaction(): Promise<void> {
    if (this.db.inTransaction) return this.undoUnit();
    // SQLite rolled the whole physical transaction back (an I/O error, a full disk): the units before this one
    // in the batch lost their work too, and must not be told otherwise.
    this.failBatch(new StoreUnavailable('The store rolled back a group of transactions after an error; retry', undefined, 'group_rolled_back'));
  }

  async releaseConnection(): Promise<void> {
    const mine = this.unitBatch;
    this.unitBatch = null;
    if (this.batch && (this.broken || this.batch.closing || this.batch.units >= MAX_BATCH_UNITS || !this.db.inTransaction)) this.commitBatch();
    else if (this.batch && this.queue.length === 0) this.scheduleCommit();
    this.handOn();
    if (mine) await mine.durable;
  }

  private openBatch(): void {
    this.connection.exec('begin');
    this.connection.redo = [];
    this.batch = new Batch();
    this.batch.units++;
    this.unitBatch = this.batch;
  }

  /**
   * Undoes the failing unit alone: rolls the physical transaction back, then runs the writes of the batch's earlier
   * units (and lone writes) again, in their order. A SAVEPOINT per unit did this before, but it made SQLite copy
   * every page a unit changed to a statement journal first: about a quarter of a payout's CPU, paid by
   * every unit for the rare one that fails. The replay gives the same rows because a write's effect depends only on
   * its parameters and the rows before it (no SQL here reads the clock or draws random numbers), and the rows
   * before it are the same: this connection held the write lock from the batch's first write, and data_version
   * tells whether another connection (another process) committed between the ROLLBACK and the BEGIN IMMEDIATE.
   * If one did, or the replay fails, the batch's units fail as at a failed COMMIT, and are told to retry. (SQLite
   * serves one process; another one holding the write lock would make BEGIN IMMEDIATE wait up to busy_timeout.)
   */
  private undoUnit(): void {
    // A unit that wrote nothing (it only read, or its writes failed and SQLite undid them) has nothing to undo.
    if (this.connection.redo!.length === this.unitStart) return;
    const earlier = this.connection.redo!.slice(0, this.unitStart);
    try {
      const version = this.db.pragma('data_version', { simple: true });
      this.connection.exec('rollback');
      this.connection.exec('begin immediate');
      if (this.db.pragma('data_version', { simple: true }) !== version) throw new Error('another connection wrote meanwhile');
      this.connection.replay(earlier);
      // Committed at this unit's release, so that no unit is replayed for two failures.
      this.batch!.closing = true;
    } catch (e) {
      if (this.db.inTransaction) {
        try {
          this.connection.exec('rollback');
        } catch {
          // Still busy (a statement of the unit left open): the batch fails below, and BEGIN will say so.
        }
      }
      this.failBatch(new StoreUnavailable(`The store could not undo one transaction of a group alone; retry (${String(e)})`, e, 'group_rolled_back'));
    }
  }

  private handOn(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.locked = false;
  }

  async destroy(): Promise<void> {
    if (this.peers) {
      this.peers.delete(this);
      if (this.peers.size === 0) driversPerFile.delete(this.file!);
    }
    if (this.batch) this.commitBatch();
    // Each finished sync may start the next for what was committed meanwhile.
    while (this.syncing) await this.syncing;
    this.db.close();
  }

  /** Commits once everything the current turn of the event loop could add has joined. */
  private scheduleCommit(): void {
    if (this.commitScheduled) return;
    this.commitScheduled = true;
    setImmediate(() => {
      this.commitScheduled = false;
      if (!this.batch) return;
      // A unit holding the connection (one awaiting something slow mid-transaction) commits when it releases.
      if (this.locked) return void (this.batch.closing = true);
      this.commitBatch();
    });
  }

  private commitBatch(): void {
    const b = this.batch!;
    this.batch = null;
    this.connection.redo = null;
    if (!this.db.inTransaction) {
      // Rolled back by SQLite itself after an error; failBatch told the units already, or does now.
      b.reject(new StoreUnavailable('The store rolled back a group of transactions after an error; retry', undefined, 'group_rolled_back'));
      return;
    }
    if (this.broken) {
      // A COMMIT now would put frames after ones the disk may have lost; recovery would drop them anyway.
      this.connection.exec('rollback');
      b.reject(this.broken);
      return;
    }
    try {
      this.connection.exec('commit');
    } catch (e) {
      if (this.db.inTransaction) this.connection.exec('rollback');
      b.reject(e);
      return;
    }
    this.onCommit?.(b.units);
    if (!this.syncLog) return b.resolve();
    this.awaitSync(b);
  }

  /** Before any write on this connection; `lone`: a write (SQLite says so) with no transaction open. */
  private beforeWrite(lone: boolean): void {
    if (this.peers && this.peers.size > 1) {
      for (const peer of this.peers) if (peer !== this) peer.commitIfIdle();
      return;
    }
    if (lone) this.openLoneBatch();
  }

  /** Another connection of this process is about to write: a batch waiting only for the next turn commits now. */
  private commitIfIdle(): void {
    if (this.batch && !this.locked) this.commitBatch();
  }

  /**
   * A lone write (no transaction of its own) with no batch open starts one, which the units that follow in this
   * turn of the event loop join. Left to commit by itself, each such write paid a whole COMMIT, and with FULL its
   * fsync on the event loop: in a payout load the follow-up job's claims averaged 81 µs instead of 11, about a
   * tenth of the event loop. The writer is answered after the batch's COMMIT, as a unit is.
   */
  private openLoneBatch(): void {
    // A batch open outside a transaction is one SQLite ended itself after an error.
    if (this.batch) this.refuseEndedBatch();
    this.openBatch();
  }

  /**
   * A batch that SQLite ended by itself after an error: its units fail as at their release. If the unit holding the
   * connection wrote in it, its work is gone, and so must what it does next be refused, not run in a new batch.
   */
  private refuseEndedBatch(): void {
    const ended = this.batch;
    this.commitBatch();
    if (this.unitBatch === ended) throw new StoreUnavailable('The store rolled back a group of transactions after an error; retry', undefined, 'group_rolled_back');
  }

  /**
   * A write SQLite committed by itself, unsynced: a batch of its own. That is any write while its file has several
   * drivers in this process (see driversPerFile), which do not batch lone writes.
   */
  private autocommitted(): void {
    const b = new Batch();
    b.units = 1;
    this.unitBatch = b;
    if (this.broken) return b.reject(this.broken);
    this.awaitSync(b);
  }

  /** A committed batch is answered by the next sync that starts after now. */
  private awaitSync(b: Batch): void {
    this.committed.push(b);
    this.unsynced = b;
    this.startSync();
  }

  /**
   * One sync of the log at a time, covering every batch committed before it started; batches committed while it
   * runs wait for the next one. A batch is answered only after a sync that began after its COMMIT.
   */
  private startSync(): void {
    if (this.syncing || this.committed.length === 0) return;
    const covered = this.committed;
    this.committed = [];
    const last = covered[covered.length - 1];
    this.syncing = this.syncLog!().then(
      () => {
        this.syncing = null;
        if (this.unsynced === last) this.unsynced = null;
        for (const b of covered) b.resolve();
        this.startSync();
      },
      (err: unknown) => {
        // After a failed fsync the kernel may have dropped the pages it could not write, and a later fsync can
        // succeed without them: nothing committed from here on can be promised durable, so the store stops.
        this.broken = new Error(`The store could not make its log durable; restart the service (${String(err)})`);
        this.syncing = null;
        for (const b of [...covered, ...this.committed]) b.reject(this.broken);
        this.committed = [];
        this.unsynced = null;
      },
    );
  }

  private failBatch(e: Error): void {
    const b = this.batch;
    this.batch = null;
    this.connection.redo = null;
    b?.reject(e);
  }
}

export interface GroupCommitOptions {
  /** Sees each physical commit and how many units it covered (tests, diagnostics). */
  onCommit?: (units: number) => void;
  /**
   * Makes everything committed so far durable, off the event loop (`sqlite-wal-sync.ts`). Given when the
   * connection commits without syncing (`synchronous=NORMAL`): no unit is answered before a sync that began after
   * its batch's COMMIT has finished. Without it, each COMMIT syncs by itself (`synchronous=FULL`).
   */
  syncLog?: () => Promise<void>;
}

/**
 * SQLite's adapter, saying that the driver serves several units at once. Kysely (0.29) otherwise puts a mutex
 * around every connection (one holder at a time, until its release returns), and a unit's release waits for its
 * batch to be durable: no second unit could join a batch, and every transaction would pay its own commit. The
 * driver keeps one unit on the connection at a time itself (`acquireConnection`), handing it on at release.
 */
class GroupCommitSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/** Kysely's SQLite dialect with the group-commit driver. */
export class GroupCommitSqliteDialect implements Dialect {
  constructor(
    private readonly db: SQLite.Database,
    private readonly opts: GroupCommitOptions = {},
  ) {}
  createDriver(): Driver {
    return new GroupCommitSqliteDriver(this.db, this.opts);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new GroupCommitSqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}
