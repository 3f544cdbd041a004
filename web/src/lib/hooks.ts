import { useEffect, useState } from 'react';

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
