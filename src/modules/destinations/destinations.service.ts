import type { AppContext } from '../../context.js';
import { accountHolder } from '../../shared/bcra-entities.js';
import type { DestinationKind } from '../../shared/ar-identifiers.js';
import { AppError } from '../../shared/errors.js';
import { lookUpDestination, type PayoutDestination } from '../payouts/payout.decision.js';
import type { ResolvedAccount } from '../rail/rail.port.js';

export interface DestinationInput {
  destination: string;
  destination_kind?: DestinationKind;
}

/** `POST /v1/destinations/resolve` and MCP `resolve_destination`: who is behind a CBU, CVU or alias. */
export interface ResolvedDestinationView {
  destination_kind: DestinationKind;
  /** The 22-digit account (an alias resolved). */
  account: string;
  holder_name: string;
  /** The holder's CUIT/CUIL with all but its last 3 digits masked: enough to recognise, not to copy. */
  holder_legal_id: string;
  bank_name: string | null;
}

/** `20123456783` → `********783`. */
export const maskLegalId = (legalId: string): string => (legalId.length <= 3 ? legalId : `${'*'.repeat(legalId.length - 3)}${legalId.slice(-3)}`);

/**
 * The institution's name: the BCRA table's for a CBU's bank (by its entity code), else what the rail says (a CVU's
 * provider), else null.
 */
export function bankNameOf(resolved: ResolvedAccount): string | null {
  const holder = accountHolder(resolved.accountNumber);
  return (holder?.type === 'CBU' ? holder.name : null) ?? resolved.bankName ?? null;
}

/** What a simulation shows of its destination; the fields are null when the rail knows no such account. */
export const destinationSummary = (d: PayoutDestination) => ({
  kind: d.kind,
  account: d.resolved?.accountNumber ?? null,
  holder_name: d.resolved?.holderName ?? null,
  bank_name: d.resolved ? bankNameOf(d.resolved) : null,
});

/** Asks the rail; nothing is written. A malformed destination, or one the rail does not know, is 404. */
export async function resolveDestination(ctx: AppContext, input: DestinationInput): Promise<ResolvedDestinationView> {
  const d = await lookUpDestination(ctx, input, 'retry shortly');
  if (!d.resolved) {
    const what = d.kind === 'ALIAS' ? 'alias' : d.kind;
    throw new AppError('DESTINATION_NOT_FOUND', `No account answers to the ${what} "${d.destination}": check it with the person you are paying`);
  }
  return {
    destination_kind: d.kind,
    account: d.resolved.accountNumber,
    holder_name: d.resolved.holderName,
    holder_legal_id: maskLegalId(d.resolved.holderLegalId),
    bank_name: bankNameOf(d.resolved),
  };
}
