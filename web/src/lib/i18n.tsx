import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Lang } from './format';
import { en, es, type MessageKey } from './messages';

const DICTS: Record<Lang, Record<MessageKey, string>> = { es, en };
const LANG_KEY = 'ars-wallet.lang';

/**
 * The language is the one preference kept across visits, in localStorage: it is no secret and says nothing about
 * the session (D33 keeps the session out of localStorage; eslint enforces it everywhere else).
 */
function storedLang(): Lang {
  try {
    // eslint-disable-next-line no-restricted-globals
    const v = localStorage.getItem(LANG_KEY);
    return v === 'en' ? 'en' : 'es';
  } catch {
    return 'es';
  }
}

export type T = (key: MessageKey, vars?: Record<string, string | number>) => string;

interface I18n {
  lang: Lang;
  setLang(l: Lang): void;
  t: T;
}

const Ctx = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(storedLang);
  useEffect(() => {
    document.documentElement.lang = lang === 'es' ? 'es-AR' : 'en';
  }, [lang]);
  const setLang = useCallback((l: Lang) => {
    setLangState(l);
    try {
      // eslint-disable-next-line no-restricted-globals
      localStorage.setItem(LANG_KEY, l);
    } catch {
      /* private mode: the choice lasts this visit */
    }
  }, []);
  const t = useCallback<T>(
    (key, vars) => {
      const text = DICTS[lang][key] ?? key;
      return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text;
    },
    [lang],
  );
  const value = useMemo(() => ({ lang, setLang, t }), [lang, setLang, t]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useI18n(): I18n {
  const v = useContext(Ctx);
  if (!v) throw new Error('useI18n outside I18nProvider');
  return v;
}

/** A key built at run time (a reason code, a status) that may have no translation: falls back to the raw code. */
export function tOr(t: T, key: string, fallback: string, vars?: Record<string, string | number>): string {
  return key in es ? t(key as MessageKey, vars) : fallback;
}
