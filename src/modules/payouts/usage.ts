import { compiledByShape } from '../../db/compiled.js';
import type { Tx } from '../../db/database.js';
import type { PayoutsTable } from './payouts.tables.js';

/** Whose limits an attempt counts against: its user's, and its key's once keys have limits of their own. */
export const userSubject = (userId: string): string => `u:${userId}`;
export const keySubject = (keyId: string): string => `k:${keyId}`;

export interface Usage {
  day: number;
  month: number;
}

const addUsageOf = compiledByShape<number, Record<string, string | number>>((db, a, subjects) =>
  db
    .insertInto('payout_usage')
    .values(
      Array.from({ length: subjects }, (_, i) => [
        { subject: a[`s${i}`] as string, period: a.day as string, amount: a.amount as number },
        { subject: a[`s${i}`] as string, period: a.month as string, amount: a.amount as number },
      ]).flat(),
    )
    .onConflict((oc) => oc.columns(['subject', 'period']).doUpdateSet((eb) => ({ amount: eb('payout_usage.amount', '+', eb.ref('excluded.amount')) }))),
);

const subjectArgs = (subjects: string[]): Record<string, string> => Object.fromEntries(subjects.map((s, i) => [`s${i}`, s]));

/**
 * Adds (sign 1, a new attempt) or gives back (sign -1, an attempt rejected, expired or failed) its amount on the
 * day and month it was created, for its user and its key, in the caller's transaction (D16).
 */
export async function addUsage(tx: Tx, p: Pick<PayoutsTable, 'user_id' | 'api_key_id' | 'amount' | 'day_key' | 'month_key'>, sign: 1 | -1): Promise<void> {
  const subjects = [userSubject(p.user_id), ...(p.api_key_id ? [keySubject(p.api_key_id)] : [])];
  const amount = sign * Number(p.amount);
  await addUsageOf(subjects.length).run(tx, { ...subjectArgs(subjects), day: p.day_key, month: p.month_key, amount });
}
