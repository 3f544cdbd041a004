import { randomBytes } from 'node:crypto';
import { AppError } from './errors.js';

/**
 * Prefixed, time-sortable identifiers (D6): `<prefix>_` + 10 chars of time + 4 chars of a process-wide counter +
 * 12 chars of randomness. The counter keeps ids made in the same millisecond in creation order.
 */
export type IdPrefix = 'usr' | 'key' | 'wd' | 'apr' | 'evt' | 'whk' | 'whd' | 'dep' | 'trf' | 'txn' | 'acc' | 'aud' | 'lnk';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower-case

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

let counter = 0;
function encodeCounter(): string {
  counter = (counter + 1) % 32 ** 4;
  let n = counter;
  let out = '';
  for (let i = 0; i < 4; i++) {
    out = ALPHABET[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}

/** Random bytes drawn from the CSPRNG a pool at a time: one call per 4 KiB instead of one per id. */
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let poolAt = 0;
export function randomFromPool(n: number): Buffer {
  if (poolAt + n > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolAt = 0;
  }
  const out = pool.subarray(poolAt, poolAt + n);
  poolAt += n;
  return out;
}

function encodeRandom(): string {
  const bytes = randomFromPool(12);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 32];
  return out;
}

export function newId(prefix: IdPrefix, now: Date = new Date()): string {
  return `${prefix}_${encodeTime(now.getTime())}${encodeCounter()}${encodeRandom()}`;
}

/**
 * A page cursor is the last id of the previous page: one of `prefix`'s ids, or the request is refused with 400
 * naming the parameter (a garbage cursor must not read as an empty page).
 */
export function checkCursor(prefix: IdPrefix, cursor: string | undefined): void {
  if (cursor === undefined || cursor === '') return;
  if (!new RegExp(`^${prefix}_[${ALPHABET}]{26}$`).test(cursor)) {
    throw new AppError('INVALID_REQUEST', 'cursor: not a cursor of this list; pass the next_cursor of the previous page');
  }
}
