import { compiledByShape } from '../../db/compiled.js';
import { forUpdate, type Dialect, type Store, type Tx } from '../../db/database.js';
import type { KycStatus } from './wallet.tables.js';

export interface WalletForPayout {
  cvu: string;
  legal_name: string;
  kyc_status: KycStatus;
}

const walletOf = compiledByShape<Dialect, { user_id: string }, WalletForPayout>((db, a, dialect) =>
  forUpdate({ dialect }, db.selectFrom('wallets').select(['cvu', 'legal_name', 'kyc_status']).where('user_id', '=', a.user_id)),
);

/**
 * D16, D36: the per-user lock. One payout decision, approval, submission claim, cancel or pause of a user at a
 * time. PostgreSQL: the wallet row lock, held to the end of the caller's transaction; SQLite: the transaction
 * already holds the only connection. It is the first lock such a transaction takes. Null when the user has no
 * wallet.
 */
export async function lockWalletForPayout(store: Pick<Store, 'dialect'>, tx: Tx, userId: string): Promise<WalletForPayout | null> {
  return (await walletOf(store.dialect).first(tx, { user_id: userId })) ?? null;
}
