/**
 * How long one node holds an attempt it is following up (D29); a node that dies lets another take it then. While
 * held, the attempt's `next_check_at` is the lease: never later than this far ahead of the holder's clock.
 */
export const FOLLOW_UP_LEASE_MS = 60_000;
