import type { ApprovalKindHandler } from '../approvals/approval-kinds.js';
import type { PolicyThresholds } from '../policy/policy.js';
import { FIELD_KEYS, loadThresholds, toThresholdsView, writeThresholds } from './thresholds.service.js';

/**
 * What an agent's proposal asks (D13): the limits it would set, and the trusted destinations it would add and take
 * away. The trusted list is kept as that difference, not as a whole list: the owner is shown what is added and
 * removed, and approving changes exactly that. Once the owner changed the limits or the list it was made against,
 * it can no longer be approved anywhere (`approve`). (`whitelist`, a whole list, is how proposals made before this
 * were stored.)
 */
export type ThresholdProposal = Partial<Omit<PolicyThresholds, 'whitelist'>> & {
  whitelist?: string[];
  whitelistAdd?: string[];
  whitelistRemove?: string[];
  /**
   * The limits in force when it was proposed, for the ones it sets: the "before" its messages show. The trusted
   * list is recorded whole when the proposal adds to it or takes from it (proposals made before that recorded none).
   */
  was?: Partial<PolicyThresholds>;
};

/** The thresholds `current` would become once `p` is approved. */
export function applyProposal(current: PolicyThresholds, p: ThresholdProposal): PolicyThresholds {
  const { whitelistAdd, whitelistRemove, was: _was, ...rest } = p;
  const next: PolicyThresholds = { ...current, ...rest };
  if (whitelistAdd || whitelistRemove) {
    const removed = new Set(whitelistRemove ?? []);
    const kept = current.whitelist.filter((d) => !removed.has(d));
    next.whitelist = [...kept, ...(whitelistAdd ?? []).filter((d) => !kept.includes(d))];
  }
  return next;
}

/**
 * The limits a decided proposal was made on, as far as it recorded them: its amounts as they were (`was`), the
 * trusted list without what it added and with what it took away. Unrecorded (an older proposal), the ones now.
 */
function before(now: PolicyThresholds, p: ThresholdProposal): PolicyThresholds {
  const added = new Set(p.whitelistAdd ?? []);
  const whitelist = [...now.whitelist.filter((d) => !added.has(d)), ...(p.whitelistRemove ?? []).filter((d) => !now.whitelist.includes(d))];
  return { ...now, ...p.was, whitelist: p.was?.whitelist ?? (p.whitelistAdd || p.whitelistRemove ? whitelist : now.whitelist) };
}

/** Whether a limit is as it was recorded; the trusted list in any order. */
function unchanged(current: PolicyThresholds, key: keyof PolicyThresholds, was: unknown): boolean {
  if (key !== 'whitelist') return current[key] === was;
  const list = was as string[];
  return current.whitelist.length === list.length && list.every((d) => current.whitelist.includes(d));
}

/**
 * D13: whether the owner changed, since the proposal, a limit it shows as "before" or the trusted list it adds to
 * or takes from; or, for a proposal stored before the list was recorded, whether approving would empty the list.
 * Such a proposal is refused on every channel (see `approve`).
 */
function limitsChangedSince(current: PolicyThresholds, proposal: ThresholdProposal): boolean {
  const changed = Object.entries(proposal.was ?? {}).some(([k, v]) => !unchanged(current, k as keyof PolicyThresholds, v));
  const emptied = !proposal.was?.whitelist && current.whitelist.length > 0 && applyProposal(current, proposal).whitelist.length === 0;
  return changed || emptied;
}

/** Whether `p` sets the wire field `field`. */
function names(p: ThresholdProposal, field: string): boolean {
  const key = FIELD_KEYS[field as keyof typeof FIELD_KEYS];
  return key === 'whitelist' ? p.whitelist !== undefined || p.whitelistAdd !== undefined || p.whitelistRemove !== undefined : p[key] !== undefined;
}

/** An agent's proposal (D13): approving writes only what was proposed; rejecting or expiring changes nothing. */
export const thresholdApprovals: ApprovalKindHandler = {
  async describe(ctx, db, a) {
    const stored = await loadThresholds(ctx, db, a.user_id);
    const proposal = JSON.parse(a.proposal!) as ThresholdProposal;
    // Pending: against the limits in force, what approving would change now. Decided: against the limits it was
    // made on, the fields it set; an approved one is in force now, and measured against that it would show nothing
    // (the messages' "after" would read as their "before").
    const pending = a.status === 'pending';
    const base = pending ? stored : before(stored, proposal);
    const current: Record<string, unknown> = { ...toThresholdsView(base) };
    const proposed = toThresholdsView(applyProposal(base, proposal));
    const shown = pending ? ([k, v]: [string, unknown]) => JSON.stringify(v) !== JSON.stringify(current[k]) : ([k]: [string, unknown]) => names(proposal, k);
    return {
      thresholdChange: {
        current,
        proposed: Object.fromEntries(Object.entries(proposed).filter(shown)),
        // The dashboard says so and offers no approval: it would be refused.
        limitsChanged: pending && limitsChangedSince(stored, proposal),
      },
    };
  },
  async approve(ctx, tx, a, now) {
    const current = await loadThresholds(ctx, tx, a.user_id);
    const proposal = JSON.parse(a.proposal!) as ThresholdProposal;
    // D13: what the owner read showed each amount as "before → after": a Telegram or WhatsApp message as it was sent,
    // and the dashboard's card as it was last fetched (another tab or device, or the form just below it, may have
    // changed the limits since). Where the owner changed one of those amounts meanwhile, approving would write a
    // change the owner never read (a tightening shown, a loosening written), so it is refused on every channel; the
    // agent may propose again, and the owner can set the value directly. The same holds for the trusted list: two
    // proposals that each take one destination away read as tightenings, yet together empty the list, and an empty
    // list lets any destination through (D15); once one is approved the list has changed, so the other is refused.
    // A proposal stored before the list was recorded: at least never let its approval empty a list (D15).
    if (limitsChangedSince(current, proposal)) return ['limits_changed'];
    await writeThresholds(tx, a.user_id, applyProposal(current, proposal), now);
    return [];
  },
  async reject() {},
  async expire() {},
};
