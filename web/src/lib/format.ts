/**
 * How the dashboard writes money and time (D33, issue "Language"): amounts the Argentine way (`$ 150.000,00`)
 * whatever the UI language, times in Buenos Aires on a 24-hour clock. Pure functions, unit-tested.
 */

export type Lang = 'es' | 'en';

export const BA_TZ = 'America/Argentina/Buenos_Aires';

/** ARS amount (number of pesos, or the API's decimal string "1500.00") → `$ 1.500,00`. Exact to the centavo. */
export function formatArs(amount: number | string): string {
  const n = typeof amount === 'string' ? Number(amount) : amount;
  if (!Number.isFinite(n)) return '—';
  const centavos = Math.round(n * 100);
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  const int = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}$ ${int},${String(abs % 100).padStart(2, '0')}`;
}

/** An amount typed in a form field as plain editable text: `150000,5` → `150.000,50`, without the `$`. */
export function formatArsPlain(amount: number): string {
  return formatArs(amount).replace(/^(-?)\$ /, '$1');
}

/**
 * Parses what an Argentine types as an amount: `150000`, `150.000`, `150.000,50`, `150000,5`, and also
 * `150000.50` (a decimal point when it cannot be a thousands separator). Null when it is not a non-negative
 * amount with at most 2 decimals.
 */
export function parseArs(input: string): number | null {
  let s = input.trim().replace(/^\$\s*/, '').replace(/\s/g, '');
  if (s === '') return null;
  if (s.includes(',')) {
    // Comma = decimal separator; dots must then be proper thousands groups.
    if (!/^\d{1,3}(\.\d{3})*(,\d{0,2})?$|^\d+(,\d{0,2})?$/.test(s)) return null;
    s = s.replace(/\./g, '').replace(',', '.');
  } else if (s.includes('.')) {
    if (/^\d{1,3}(\.\d{3})+$/.test(s)) s = s.replace(/\./g, '');
    else if (!/^\d+\.\d{1,2}$/.test(s)) return null;
  } else if (!/^\d+$/.test(s)) {
    return null;
  }
  const n = Number(s.endsWith('.') ? s.slice(0, -1) : s);
  if (!Number.isFinite(n) || n < 0 || n > 1e11) return null;
  return Math.round(n * 100) / 100;
}

const MONTHS: Record<Lang, string[]> = {
  es: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'],
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
};

const partsFormatter = new Intl.DateTimeFormat('en-US', {
  timeZone: BA_TZ,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The wall-clock fields of an instant in Buenos Aires. */
export function baParts(date: Date): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(partsFormatter.formatToParts(date).find((p) => p.type === type)?.value ?? 0);
  const hour = get('hour');
  return { year: get('year'), month: get('month'), day: get('day'), hour: hour === 24 ? 0 : hour, minute: get('minute'), second: get('second') };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `22 nov 2026, 14:05` (Buenos Aires, 24-hour); with seconds: `22 nov 2026, 14:05:09`. */
export function formatDateTime(iso: string | Date | null | undefined, lang: Lang = 'es', opts: { seconds?: boolean } = {}): string {
  if (!iso) return '—';
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '—';
  const p = baParts(d);
  const time = `${pad(p.hour)}:${pad(p.minute)}${opts.seconds ? `:${pad(p.second)}` : ''}`;
  return `${p.day} ${MONTHS[lang][p.month - 1]} ${p.year}, ${time}`;
}

/** `14:05:09` in Buenos Aires. */
export function formatTime(iso: string | Date, opts: { seconds?: boolean } = { seconds: true }): string {
  const p = baParts(typeof iso === 'string' ? new Date(iso) : iso);
  return `${pad(p.hour)}:${pad(p.minute)}${opts.seconds ? `:${pad(p.second)}` : ''}`;
}

/** Seconds left → `4:59`, `1:02:03`; never negative. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

/** The machine-readable form for `<time dateTime>`. */
export const isoOf = (iso: string | null | undefined): string | undefined => (iso ? new Date(iso).toISOString() : undefined);

/** A CBU/CVU in its two blocks, as banks print it: `00000031 00010000000001`; anything else as is. */
export function formatAccount(account: string): string {
  return /^\d{22}$/.test(account) ? `${account.slice(0, 8)} ${account.slice(8)}` : account;
}

/** An instant's day in Buenos Aires as es-AR writes it: `31/12/2026` (whatever the browser's locale). */
export function formatDateAr(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = baParts(d);
  return `${pad(p.day)}/${pad(p.month)}/${p.year}`;
}

/**
 * `31/12/2026` (also `31-12-2026`, `31.12.26`) → the last second of that day in Buenos Aires
 * (`2026-12-31T23:59:59-03:00`, Argentina keeps no summer time); null when it is not a real date.
 */
export function parseDateAr(text: string): string | null {
  const m = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return null;
  const day = Number(m[1]);
  const month = Number(m[2]);
  const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return `${year}-${pad(month)}-${pad(day)}T23:59:59-03:00`;
}
