import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { newId } from '../../shared/ids.js';
import type { Principal } from '../auth/auth.service.js';

type AuditRow = { id: string; user_id: string; api_key_id: string | null; api_key_name: string | null; action: string; subject_id: string | null; data: string; created_at: string };
const insertAudit = compiled<AuditRow>((db, a) =>
  db.insertInto('audit_log').values({
    id: a.id,
    user_id: a.user_id,
    api_key_id: a.api_key_id,
    api_key_name: a.api_key_name,
    action: a.action,
    subject_id: a.subject_id,
    data: a.data,
    created_at: a.created_at,
  }),
);

export async function writeAudit(
  db: Executor,
  clock: Clock,
  who: Principal,
  entry: { action: string; subjectId?: string | null; data?: unknown },
): Promise<void> {
  const now = clock.now();
  await insertAudit.run(db, {
    id: newId('aud', now),
    user_id: who.userId,
    api_key_id: who.keyId ?? null,
    api_key_name: who.keyName ?? null,
    action: entry.action,
    subject_id: entry.subjectId ?? null,
    data: JSON.stringify(entry.data ?? {}),
    created_at: now.toISOString(),
  });
}

export interface ActivityEntry {
  id: string;
  action: string;
  subject_id: string | null;
  /** Who did it: an agent (through one of the user's API keys) or the owner (dashboard, Telegram). */
  actor: 'owner' | 'agent';
  api_key_id: string | null;
  api_key_name: string | null;
  data: unknown;
  created_at: string;
}

export const ACTIVITY_MAX = 100;

/** The user's audit log, newest first; `cursor` is the last id of the previous page (ids sort by time, D6). */
export async function listActivity(
  db: Executor,
  userId: string,
  opts: { limit?: number; cursor?: string } = {},
): Promise<{ entries: ActivityEntry[]; next_cursor: string | null }> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), ACTIVITY_MAX);
  let q = db.selectFrom('audit_log').selectAll().where('user_id', '=', userId);
  if (opts.cursor) q = q.where('id', '<', opts.cursor);
  const rows = await q.orderBy('id', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  return {
    entries: page.map((r) => ({
      id: r.id,
      action: r.action,
      subject_id: r.subject_id,
      actor: r.api_key_id ? 'agent' : 'owner',
      api_key_id: r.api_key_id,
      api_key_name: r.api_key_name,
      data: parseData(r.data),
      created_at: r.created_at,
    })),
    next_cursor: rows.length > limit ? page[page.length - 1]!.id : null,
  };
}

function parseData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
