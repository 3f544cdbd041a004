import { compiledByShape, runRead, type Read } from '../../db/compiled.js';
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
 * D16: one payout decision of a user at a time. PostgreSQL: the wallet row lock, held to the end of the caller's
 * transaction; SQLite: the transaction already holds the only connection. Null when the user has no wallet. As a
 * read for `readTogether`, it must come before the reads it guards.
 */
export function walletLockForPayout(store: Pick<Store, 'dialect'>, userId: string): Read<WalletForPayout | null> {
  return walletOf(store.dialect).read({ user_id: userId }, (rows) => rows[0] ?? null);
}

export async function lockWalletForPayout(store: Store, tx: Tx, userId: string): Promise<WalletForPayout | null> {
  return runRead(tx, walletLockForPayout(store, userId));
}
