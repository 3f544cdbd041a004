/** D16: limits count calendar days and months in Buenos Aires, whatever the server's time zone. */
const fmt = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Argentina/Buenos_Aires',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

export function buenosAiresDay(d: Date): { day: string; month: string } {
  const day = fmt.format(d); // YYYY-MM-DD
  return { day, month: day.slice(0, 7) };
}
