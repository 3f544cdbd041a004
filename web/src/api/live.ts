import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { endSession, getToken } from '../lib/session';
import { qk } from './queries';

/** One fingerprint per topic, as `GET /v1/events/stream` sends them. */
type LiveState = Record<'approvals' | 'payouts' | 'money' | 'pause' | 'limits', string>;

const TOPICS = ['approvals', 'payouts', 'money', 'pause', 'limits'] as const;

/** What to fetch again when a topic's fingerprint changed (a function: queries.ts imports this module too). */
const refreshOf = (topic: keyof LiveState): readonly (readonly string[])[] =>
  ({
    approvals: [qk.pending, qk.approvalsRecent, qk.activity],
    payouts: [qk.payouts, qk.pending, qk.approvalsRecent, qk.balance, qk.deposits, qk.activity, qk.deliveries],
    money: [qk.balance, qk.deposits, qk.deliveries],
    pause: [qk.pause, qk.payouts, qk.deliveries],
    // A proposal's card shows "before → after" against the limits in force: fetched again when they change.
    limits: [qk.thresholds, qk.pending, qk.approvalsRecent, qk.activity],
  })[topic];

let connected = false;
const listeners = new Set<() => void>();
function setConnected(v: boolean): void {
  if (connected === v) return;
  connected = v;
  for (const l of listeners) l();
}

/** Whether the live stream is up (queries then need no polling of their own). */
export const isLive = (): boolean => connected;
export function useLive(): boolean {
  return useSyncExternalStore(
    (l) => (listeners.add(l), () => listeners.delete(l)),
    () => connected,
  );
}

/** For queries that change by themselves: no polling while the stream is up, a slow poll while it is not. */
export const whenNotLive = (ms: number) => (): number | false => (connected ? false : ms);

/**
 * Keeps the dashboard live: one fetch-read server-sent event stream (EventSource cannot send the token, which
 * stays in memory, D33) for as long as the session lasts. Each changed fingerprint refreshes what it covers;
 * a dropped stream reconnects with a growing pause, and what changed meanwhile arrives with its first state.
 */
export function useLiveUpdates(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const stop = new AbortController();
    void run(qc, stop.signal);
    return () => {
      stop.abort();
      setConnected(false);
    };
  }, [qc]);
}

async function run(qc: QueryClient, signal: AbortSignal): Promise<void> {
  let last: LiveState | null = null;
  let failures = 0;
  while (!signal.aborted) {
    const token = getToken();
    if (!token) return;
    let wait = Math.min(30_000, 1000 * 2 ** failures);
    try {
      const res = await fetch('/v1/events/stream', { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal });
      if (res.status === 401) {
        // The server ends a stream when its token expires; the reopening then meets TOKEN_EXPIRED, an expiry still.
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        return endSession(body.error === 'TOKEN_EXPIRED' ? 'expired' : 'revoked');
      }
      if (!res.ok || !res.body) {
        const retry = Number(res.headers.get('retry-after'));
        if (retry > 0) wait = retry * 1000;
        throw new Error(`stream: HTTP ${res.status}`);
      }
      failures = 0;
      for await (const state of states(res.body, signal)) {
        setConnected(true);
        if (last) {
          const keys = new Set<readonly string[]>();
          for (const topic of TOPICS) if (state[topic] !== last[topic]) for (const k of refreshOf(topic)) keys.add(k);
          for (const queryKey of keys) void qc.invalidateQueries({ queryKey });
        }
        last = state;
      }
      wait = 500; // the server ended it (its time limit): open the next one at once
    } catch {
      if (signal.aborted) return;
      failures++;
    }
    setConnected(false);
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** The `event: state` messages of a text/event-stream body. */
async function* states(body: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncGenerator<LiveState> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (!signal.aborted) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === 'state' && data) yield JSON.parse(data) as LiveState;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
