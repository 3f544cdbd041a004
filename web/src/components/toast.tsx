import { useEffect, useState } from 'react';

/** Short confirmations ("Guardado.", "Aprobado.") announced politely to screen readers. */
type Toast = { id: number; text: string; kind: 'ok' | 'error' };
let seq = 0;
const listeners = new Set<(t: Toast) => void>();

export function toast(text: string, kind: Toast['kind'] = 'ok'): void {
  const t = { id: ++seq, text, kind };
  listeners.forEach((l) => l(t));
}

export function Toasts() {
  const [items, setItems] = useState<Toast[]>([]);
  useEffect(() => {
    const l = (t: Toast) => {
      setItems((xs) => [...xs.slice(-2), t]);
      setTimeout(() => setItems((xs) => xs.filter((x) => x.id !== t.id)), 4000);
    };
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {items.map((t) => (
        <p key={t.id} className={`toast toast-${t.kind}`}>
          {t.text}
        </p>
      ))}
    </div>
  );
}
