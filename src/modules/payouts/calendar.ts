/** D16: limits count calendar days and months in Buenos Aires, whatever the server's time zone. */
const fmt = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Argentina/Buenos_Aires',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

let last: { minute: number; period: { day: string; month: string } } | null = null;

/**
 * Every payout asks; formatting in a time zone is slow enough to show in a profile. Offsets are whole
 * minutes, so the answer holds for the rest of a minute; it is kept for the last minute asked.
 */
export function buenosAiresDay(d: Date): { day: string; month: string } {
  const minute = Math.floor(d.getTime() / 60_000);
  if (last?.minute === minute) return { ...last.period };
  const day = fmt.format(d); // YYYY-MM-DD
  last = { minute, period: { day, month: day.slice(0, 7) } };
  return { ...last.period };
}
