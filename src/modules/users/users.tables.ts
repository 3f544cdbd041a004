import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: string;
}

export interface UsersTables {
  users: UsersTable;
}

export const usersMigrations: Record<string, Migration> = {
  '0001_users': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
