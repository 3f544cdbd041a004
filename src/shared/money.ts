/**
 * Money is integer centavos everywhere inside the service (D5). These are the only conversions to and from
 * the ARS amounts of the wire format.
 */
export const MAX_CENTAVOS = Number.MAX_SAFE_INTEGER;
/**
 * The largest |amount| in ARS a request may carry (D5). From 2^43 ARS (about 8.8e12) a double's step is 2^-9 ARS,
 * wider than a thousandth: 9047430885130.339 is the same double as …130.34, so an amount with three decimals would
 * be taken as a two-decimal one instead of refused. Below it, every amount is told apart from its neighbours.
 */
export const MAX_ARS = 8e12;

/** ARS number from a request → centavos, or null when it is not finite, beyond MAX_ARS, or has > 2 decimals. */
export function arsToCentavos(amount: number): number | null {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || Math.abs(amount) > MAX_ARS) return null;
  const scaled = Math.round(amount * 100);
  // Accept exactly what a 2-decimal literal parses to (0.29 * 100 = 28.999999999999996): compare to decimals.
  if (Math.abs(scaled - amount * 100) > 1e-6 * Math.max(1, Math.abs(amount))) return null;
  if (!Number.isSafeInteger(scaled)) return null;
  // Reject 3+ decimals that happen to round close, e.g. 1.001 vs 1.00.
  if (Number((scaled / 100).toFixed(2)) !== amount) return null;
  return scaled;
}

/** Centavos → decimal string with 2 decimals ("1500.00"), as balances are shown (D5). */
export function formatCentavos(c: number): string {
  const sign = c < 0 ? '-' : '';
  const abs = Math.abs(c);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Centavos → ARS number, as `amount_ars` is shown (D5). */
export const centavosToArs = (c: number): number => c / 100;

/** "$ 150.000,00": Argentine formatting for receipts and approval messages. */
export function formatArs(c: number): string {
  const sign = c < 0 ? '-' : '';
  const abs = Math.abs(c);
  const int = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}$ ${int},${String(abs % 100).padStart(2, '0')}`;
}
