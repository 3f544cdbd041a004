import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/database.js';
import { AppError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { createApiKey, type NewApiKey } from '../keys/keys.service.js';
import { DUMMY_HASH, hashPassword, verifyPassword } from './password.js';

export interface UserView {
  id: string;
  email: string;
  name: string;
  created_at: string;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** D9: the user and its first API key (`default`) are created in one transaction. */
export async function createUser(
  ctx: AppContext,
  input: { email: string; password: string; name: string },
): Promise<{ user: UserView; defaultKey: NewApiKey }> {
  const email = normalizeEmail(input.email);
  const password_hash = await hashPassword(input.password);
  const now = ctx.clock.now();
  const user = { id: newId('usr', now), email, name: input.name.trim(), created_at: now.toISOString() };
  try {
    const defaultKey = await ctx.store.transaction(async (tx) => {
      await tx.insertInto('users').values({ ...user, password_hash }).execute();
      return createApiKey(ctx, tx, user.id, 'default');
    });
    return { user, defaultKey };
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('EMAIL_TAKEN', 'A user with this email already exists');
    throw e;
  }
}

export async function getUser(ctx: AppContext, userId: string): Promise<UserView | null> {
  const row = await ctx.store.db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'created_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}

export async function checkOwnerCredentials(ctx: AppContext, email: string, password: string): Promise<string> {
  const row = await ctx.store.db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  const ok = await verifyPassword(password, row?.password_hash ?? (await DUMMY_HASH));
  if (!row || !ok) throw new AppError('INVALID_CREDENTIALS', 'Email or password is wrong');
  return row.id;
}
