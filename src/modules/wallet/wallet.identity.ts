import type { Executor } from '../../db/database.js';

/** The wallet holder's identity as onboarding recorded it (D10), for documents that name the account holder. */
export interface WalletIdentity {
  legal_id: string;
  legal_name: string;
  cvu: string;
  alias: string;
}

/** Read-only; null before onboarding. Other modules read the holder through this rather than the wallets table. */
export async function walletIdentityOf(db: Executor, userId: string): Promise<WalletIdentity | null> {
  const row = await db.selectFrom('wallets').select(['legal_id', 'legal_name', 'cvu', 'alias']).where('user_id', '=', userId).executeTakeFirst();
  return row ?? null;
}
