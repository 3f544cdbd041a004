import type { Executor } from '../../../db/database.js';
import type { TransferLeg } from '../rail.port.js';
import type { RailTransfersTable } from './sandbox.tables.js';

export { NOTICE_LEASE_MS, NOTICE_MAX_TAKES } from '../notice-queue.js';

/** A completed credit leg of `t` as the receiving customer sees it (the same shape `listLegs` gives). */
export function creditLegOf(t: RailTransfersTable, leg: { id: string; created_at: string }): TransferLeg {
  return {
    id: leg.id,
    from: t.from_identifier,
    to: t.to_identifier,
    fromLegalId: t.from_legal_id,
    toLegalId: t.to_legal_id,
    fromName: t.from_name,
    toName: t.to_name,
    amountCentavos: Number(t.amount),
    currency: 'ARS',
    status: 'COMPLETED',
    creationTime: leg.created_at,
    direction: 'credit',
    isReversal: false,
  };
}

/**
 * Writes the notice of a completed credit to a customer, with the caller's transaction: the notice exists if and
 * only if the credit does (outbox).
 */
export async function writeNotice(tx: Executor, t: RailTransfersTable, leg: { id: string; created_at: string }, now: Date): Promise<void> {
  const at = now.toISOString();
  await tx
    .insertInto('rail_incoming_notices')
    .values({
      id: leg.id,
      cvu: t.to_identifier,
      leg: JSON.stringify(creditLegOf(t, leg)),
      status: 'pending',
      attempts: 0,
      lock_token: null,
      locked_until: null,
      failure_reason: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
