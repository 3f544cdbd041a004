import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';

/** Now, re-rendered every `ms` (countdowns). */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

/** Sets the document title for a screen. */
export function useTitle(title: string, appName: string): void {
  useEffect(() => {
    document.title = `${title} · ${appName}`;
  }, [title, appName]);
}

/**
 * The mutation's `mutate`, sent at most once at a time. A double click lands its second click before `isPending`
 * has disabled the button, and would send the action twice: a second key whose secret nobody saw, a second test
 * delivery or sandbox deposit.
 */
export function useSendOnce<V>(mutation: UseMutationResult<unknown, unknown, V>): (v: V) => void {
  const sending = useRef(false);
  return (v: V) => {
    if (sending.current) return;
    sending.current = true;
    mutation.mutate(v, {
      onSettled: () => {
        sending.current = false;
      },
    });
  };
}
