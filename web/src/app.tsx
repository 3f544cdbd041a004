import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ComponentType } from 'react';
import { ApiError } from './api/client';
import { useLiveUpdates } from './api/live';
import { useCvu, useFeatures, usePendingApprovals } from './api/queries';
import { Toasts } from './components/toast';
import type { Lang } from './lib/format';
import { useI18n } from './lib/i18n';
import type { MessageKey } from './lib/messages';
import { Link, match, navigate, useLocation } from './lib/router';
import { endSession, useSession } from './lib/session';
import { ActivityScreen } from './screens/activity';
import { AgentsScreen } from './screens/agents';
import { ApprovalsScreen } from './screens/approvals';
import { LoginScreen, SignupScreen } from './screens/auth';
import { HomeScreen } from './screens/home';
import { LimitsScreen } from './screens/limits';
import { NotFoundScreen } from './screens/not-found';
import { OnboardingScreen } from './screens/onboarding';
import { PayoutDetailScreen } from './screens/payout-detail';
import { PayoutsScreen } from './screens/payouts';
import { SandboxScreen } from './screens/sandbox';
import { ChannelsScreen } from './screens/channels';
import { ConnectScreen } from './screens/connect';
import { WebhookScreen } from './screens/webhook';

type Screen = ComponentType<{ params: Record<string, string> }>;

interface Route {
  path: string;
  screen: Screen;
  nav?: MessageKey;
  sandboxOnly?: boolean;
}

const ROUTES: Route[] = [
  { path: '/', screen: HomeScreen, nav: 'nav.home' },
  { path: '/approvals', screen: ApprovalsScreen, nav: 'nav.approvals' },
  { path: '/payouts', screen: PayoutsScreen, nav: 'nav.payouts' },
  { path: '/payouts/:id', screen: PayoutDetailScreen },
  { path: '/agents', screen: AgentsScreen, nav: 'nav.agents' },
  { path: '/limits', screen: LimitsScreen, nav: 'nav.limits' },
  { path: '/webhook', screen: WebhookScreen, nav: 'nav.webhook' },
  { path: '/channels', screen: ChannelsScreen, nav: 'nav.channels' },
  { path: '/telegram', screen: ChannelsScreen },
  { path: '/activity', screen: ActivityScreen, nav: 'nav.activity' },
  { path: '/sandbox', screen: SandboxScreen, nav: 'nav.sandbox', sandboxOnly: true },
  { path: '/onboarding', screen: OnboardingScreen },
  { path: '/connect/:uid', screen: ConnectScreen },
];

function resolve(path: string): { route: Route | null; params: Record<string, string> } {
  for (const r of ROUTES) {
    const params = match(r.path, path);
    if (params) return { route: r, params };
  }
  return { route: null, params: {} };
}

export function App() {
  const session = useSession();
  const { path } = useLocation();
  const qc = useQueryClient();

  // A session that ends (logout, expiry, a revoked token) leaves nothing of the owner's data in memory.
  useEffect(() => {
    if (!session) qc.clear();
  }, [session, qc]);

  if (!session) {
    const screen = path === '/signup' ? <SignupScreen /> : <LoginScreen />;
    return (
      <>
        <PublicShell>{screen}</PublicShell>
        <Toasts />
      </>
    );
  }
  if (path === '/login' || path === '/signup') return <Redirect to="/" />;
  return (
    <>
      <Shell path={path} />
      <Toasts />
    </>
  );
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function LangSelect() {
  const { lang, setLang, t } = useI18n();
  return (
    <label className="lang">
      <span className="visually-hidden">{t('lang.label')}</span>
      <select value={lang} onChange={(e) => setLang(e.target.value as Lang)} aria-label={t('lang.label')}>
        <option value="es">Español</option>
        <option value="en">English</option>
      </select>
    </label>
  );
}

function PublicShell({ children }: { children: React.ReactNode }) {
  const { t } = useI18n();
  return (
    <div className="public">
      <a className="skip" href="#main">
        {t('app.skip')}
      </a>
      <header className="public-head">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true">
            $
          </span>
          {t('app.name')}
        </span>
        <LangSelect />
      </header>
      <main id="main" className="public-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

function Shell({ path }: { path: string }) {
  const { t, tn } = useI18n();
  const { route, params } = resolve(path);
  const features = useFeatures().data;
  useLiveUpdates();
  const pending = usePendingApprovals().data?.approvals.length ?? 0;
  const cvu = useCvu();
  const [menuOpen, setMenuOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);
  const first = useRef(true);

  // D10: nothing works before onboarding; send a new owner there.
  const needsOnboarding = cvu.error instanceof ApiError && cvu.error.code === 'ONBOARDING_INCOMPLETE';
  useEffect(() => {
    if (needsOnboarding && path !== '/onboarding' && path !== '/sandbox') navigate('/onboarding', { replace: true });
  }, [needsOnboarding, path]);

  // On navigation: close the phone menu and move focus to the new screen's content (screen readers hear it).
  useEffect(() => {
    setMenuOpen(false);
    if (first.current) {
      first.current = false;
      return;
    }
    mainRef.current?.querySelector('h1')?.focus();
  }, [path]);

  const nav = ROUTES.filter((r) => r.nav && (!r.sandboxOnly || features?.sandbox));
  const Screen = route && (!route.sandboxOnly || features?.sandbox !== false) ? route.screen : NotFoundScreen;
  const active = (r: Route) => (r.path === '/' ? path === '/' : path === r.path || path.startsWith(`${r.path}/`));

  return (
    <div className="shell">
      <a className="skip" href="#main">
        {t('app.skip')}
      </a>
      <header className="topbar">
        <button
          type="button"
          className="btn btn-ghost menu-btn"
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={() => setMenuOpen((o) => !o)}
        >
          <span aria-hidden="true">☰</span>
          <span className="menu-label">{t('nav.menu')}</span>
          {pending > 0 && (
            <>
              <span className="count">{pending}</span>
              <span className="visually-hidden"> {t('nav.pendingWord')}</span>
            </>
          )}
        </button>
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            $
          </span>
          {t('app.name')}
        </Link>
        {features?.sandbox && <span className="env-tag">{t('app.sandbox')}</span>}
        <span className="topbar-end">
          <LangSelect />
          <button type="button" className="btn btn-ghost" onClick={() => endSession('logout')}>
            {t('nav.logout')}
          </button>
        </span>
      </header>
      <nav id="nav" className={`nav ${menuOpen ? 'open' : ''}`} aria-label={t('nav.label')}>
        <ul>
          {nav.map((r) => (
            <li key={r.path}>
              <Link to={r.path} aria-current={active(r) ? 'page' : undefined} className={active(r) ? 'active' : undefined}>
                {t(r.nav!)}
                {r.path === '/approvals' && pending > 0 && (
                  <>
                    <span className="count" aria-hidden="true">
                      {pending}
                    </span>
                    <span className="visually-hidden"> ({tn('nav.pendingCount', pending)})</span>
                  </>
                )}
              </Link>
            </li>
          ))}
        </ul>
        <div className="nav-extra">
          <LangSelect />
          <button type="button" className="btn btn-ghost" onClick={() => endSession('logout')}>
            {t('nav.logout')}
          </button>
        </div>
      </nav>
      <main id="main" ref={mainRef} className="main" tabIndex={-1}>
        <Screen params={params} />
      </main>
    </div>
  );
}
