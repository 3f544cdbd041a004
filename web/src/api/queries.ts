import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, rawCall, unwrap } from './client';
import { whenNotLive } from './live';
import type { ApprovalList, PauseState } from './types';

/** Query keys, in one place so mutations can refresh what they change. */
export const qk = {
  balance: ['balance'] as const,
  cvu: ['cvu'] as const,
  pending: ['approvals', 'pending'] as const,
  approvalsRecent: ['approvals', 'recent'] as const,
  payouts: ['payouts'] as const,
  payout: (id: string) => ['payouts', id] as const,
  receipt: (id: string) => ['payouts', id, 'receipt'] as const,
  deposits: ['deposits'] as const,
  keys: ['keys'] as const,
  thresholds: ['thresholds'] as const,
  webhook: ['webhook'] as const,
  deliveries: ['webhook', 'deliveries'] as const,
  channels: ['channels'] as const,
  activity: ['activity'] as const,
  pause: ['pause'] as const,
  features: ['features'] as const,
};

export function useCvu() {
  return useQuery({ queryKey: qk.cvu, queryFn: () => unwrap(api.GET('/v1/cvu')), staleTime: 5 * 60_000 });
}

export function useBalance() {
  return useQuery({ queryKey: qk.balance, queryFn: () => unwrap(api.GET('/v1/balance')), refetchInterval: whenNotLive(30_000) });
}

/**
 * Pending approvals (the nav badge, home, the inbox). Fetched again when the live stream says they changed; only
 * while the stream is down does the dashboard poll, and slowly, none while the tab is hidden.
 */
export function usePendingApprovals() {
  return useQuery({
    queryKey: qk.pending,
    queryFn: () => unwrap(api.GET('/v1/approvals', { params: { query: { status: 'pending', limit: 100 } } })) as Promise<ApprovalList>,
    refetchInterval: whenNotLive(15_000),
    refetchIntervalInBackground: false,
  });
}

/** What the service offers, from its public OpenAPI document: the sandbox helpers, the D31 emergency stop. */
export interface Features {
  sandbox: boolean;
  pause: boolean;
}

export function useFeatures() {
  return useQuery({
    queryKey: qk.features,
    queryFn: async (): Promise<Features> => {
      const doc = (await rawCall<{ paths?: Record<string, unknown> }>('GET', '/openapi.json')).paths ?? {};
      return { sandbox: '/v1/sandbox/deposits' in doc, pause: '/v1/payouts/pause' in doc };
    },
    staleTime: Infinity,
    retry: 1,
  });
}

export function usePause(enabled: boolean) {
  return useQuery({
    queryKey: qk.pause,
    queryFn: (): Promise<PauseState> => unwrap(api.GET('/v1/payouts/pause')),
    enabled,
    refetchInterval: whenNotLive(60_000),
  });
}

/** After anything that moves money or decides an approval. */
export function refreshMoney(qc: QueryClient): void {
  for (const key of [qk.pending, qk.approvalsRecent, qk.payouts, qk.balance, qk.deposits, qk.activity]) void qc.invalidateQueries({ queryKey: key });
}
