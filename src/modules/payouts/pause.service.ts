import type { AppContext } from '../../context.js';
import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/database.js';
import type { Principal } from '../auth/auth.service.js';
import { writeAudit } from '../audit/audit.service.js';
import { recordEvent } from '../events/events.service.js';

export interface PauseView {
  paused: boolean;
  paused_at: string | null;
}

const pauseOf = compiled<{ user_id: string }, { paused_at: string }>((db, a) => db.selectFrom('payout_pauses').select('paused_at').where('user_id', '=', a.user_id));

export async function pauseState(db: Executor, userId: string): Promise<PauseView> {
  const row = await pauseOf.first(db, { user_id: userId });
  return { paused: !!row, paused_at: row?.paused_at ?? null };
}

/**
 * D31: the owner's emergency stop. While paused every new payout is denied (`payouts_paused`) and held ones
 * cannot be approved; what the rail already has finishes. Pausing twice changes nothing and announces nothing.
 */
export async function setPaused(ctx: AppContext, who: Principal, paused: boolean): Promise<PauseView> {
  const now = ctx.clock.now().toISOString();
  return ctx.store.transaction(async (tx) => {
    const changed = paused
      ? Number((await tx.insertInto('payout_pauses').values({ user_id: who.userId, paused_at: now }).onConflict((oc) => oc.column('user_id').doNothing()).executeTakeFirst()).numInsertedOrUpdatedRows ?? 0)
      : Number((await tx.deleteFrom('payout_pauses').where('user_id', '=', who.userId).executeTakeFirst()).numDeletedRows);
    const state = await pauseState(tx, who.userId);
    if (changed > 0) {
      await recordEvent(tx, ctx.clock, { userId: who.userId, type: paused ? 'payouts.paused' : 'payouts.resumed', data: state });
      await writeAudit(tx, ctx.clock, who, { action: paused ? 'payouts.paused' : 'payouts.resumed' });
    }
    return state;
  });
}
