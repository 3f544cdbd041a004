import type { KeysTables } from '../modules/keys/keys.tables.js';
import type { UsersTables } from '../modules/users/users.tables.js';

/** The whole store as Kysely sees it: each module declares and migrates its own tables. */
export interface Database extends UsersTables, KeysTables {}
