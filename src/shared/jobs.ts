import type { FastifyBaseLogger } from 'fastify';

/**
 * A background job that runs every `intervalMs`, never overlapping itself. Tests call `runOnce()` directly
 * instead of waiting for the timer; `stop()` waits for a run in progress so shutdown never cuts one in half.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    readonly name: string,
    private readonly intervalMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.runOnce().finally(() => this.schedule());
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Runs the job now (or joins the run already in progress). Errors are logged, not thrown. */
  async runOnce(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      try {
        await this.run();
      } catch (err) {
        this.log.error({ err, job: this.name }, 'background job failed');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) await this.running;
  }
}
