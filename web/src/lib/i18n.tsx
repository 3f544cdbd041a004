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

/** Keys with plural forms: `x.one` and `x.other` exist, and `tn('x', n)` picks one. */
export type PluralKey = { [K in MessageKey]: K extends `${infer B}.other` ? B : never }[MessageKey];
/** A count in words: the plural form `Intl.PluralRules` gives for `n` in the UI language ("1 pago", "2 pagos"). */
export type TN = (key: PluralKey, n: number, vars?: Record<string, string | number>) => string;

const PLURALS: Record<Lang, Intl.PluralRules> = { es: new Intl.PluralRules('es-AR'), en: new Intl.PluralRules('en') };

interface I18n {
  lang: Lang;
  setLang(l: Lang): void;
  t: T;
  tn: TN;
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
  const tn = useCallback<TN>(
    (key, n, vars) => {
      const form = `${key}.${PLURALS[lang].select(n)}`;
      return t((form in DICTS[lang] ? form : `${key}.other`) as MessageKey, { ...vars, n });
    },
    [lang, t],
  );
  const value = useMemo(() => ({ lang, setLang, t, tn }), [lang, setLang, t, tn]);
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
