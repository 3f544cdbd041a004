import { describe, expect, it } from 'vitest';
import { buenosAiresDay } from './calendar.js';

/** Limits count Buenos Aires days and months (UTC−3), and the answer is kept for the minute it was asked in. */
describe('buenosAiresDay', () => {
  it('turns at midnight in Buenos Aires, also when asked again within a minute', () => {
    expect(buenosAiresDay(new Date('2026-11-11T02:59:00.000Z'))).toEqual({ day: '2026-11-10', month: '2026-11' });
    expect(buenosAiresDay(new Date('2026-11-11T02:59:59.999Z'))).toEqual({ day: '2026-11-10', month: '2026-11' });
    expect(buenosAiresDay(new Date('2026-11-11T03:00:00.000Z'))).toEqual({ day: '2026-11-11', month: '2026-11' });
    expect(buenosAiresDay(new Date('2026-12-01T02:59:30.000Z'))).toEqual({ day: '2026-11-30', month: '2026-11' });
    expect(buenosAiresDay(new Date('2026-12-01T03:00:30.000Z'))).toEqual({ day: '2026-12-01', month: '2026-12' });
    // Back to an earlier minute: not the kept answer.
    expect(buenosAiresDay(new Date('2026-11-11T02:59:59.000Z'))).toEqual({ day: '2026-11-10', month: '2026-11' });
  });

  it('gives each caller its own object', () => {
    const at = new Date('2026-11-20T15:00:00.000Z');
    const a = buenosAiresDay(at);
    a.day = 'changed';
    expect(buenosAiresDay(at).day).toBe('2026-11-20');
  });
});
