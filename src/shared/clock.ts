/** Clock port: every deadline (JWT expiry, approval windows, webhook backoff, idempotency TTL) reads it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand, so schedules are tested without sleeping. */
export class FakeClock implements Clock {
  private ms: number;
  constructor(start: Date | string = '2026-11-20T15:00:00.000Z') {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(t: Date | string): void {
    this.ms = new Date(t).getTime();
  }
}

export const iso = (d: Date): string => d.toISOString();
