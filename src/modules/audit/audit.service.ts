import type { Executor } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { newId } from '../../shared/ids.js';
import type { Principal } from '../auth/auth.service.js';

export async function writeAudit(
  db: Executor,
  clock: Clock,
  who: Principal,
  entry: { action: string; subjectId?: string | null; data?: unknown },
): Promise<void> {
  const now = clock.now();
  await db
    .insertInto('audit_log')
    .values({
      id: newId('aud', now),
      user_id: who.userId,
      api_key_id: who.keyId ?? null,
      api_key_name: who.keyName ?? null,
      action: entry.action,
      subject_id: entry.subjectId ?? null,
      data: JSON.stringify(entry.data ?? {}),
      created_at: now.toISOString(),
    })
    .execute();
}
