import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import type { NewApiKey } from '../api/types';
import { ErrorBox } from '../components/ui';
import { SecretReveal } from '../components/secret';
import { Field } from '../components/ui';
import { ScreenHead } from '../components/screen';
import { useI18n } from '../lib/i18n';
import { Link, navigate } from '../lib/router';
import { clearEndReason, lastEndReason, startSession } from '../lib/session';

export function LoginScreen() {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [ended] = useState(lastEndReason);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await unwrap(api.POST('/v1/login', { body: { email: email.trim(), password } }));
      clearEndReason();
      startSession(res.token, res.expires_in);
      if (location.pathname === '/login') navigate('/', { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="auth-card card">
      <ScreenHead title={t('auth.loginTitle')} intro={t('app.tagline')} />
      {ended && (
        <p className={`notice ${ended === 'logout' ? 'notice-info' : 'notice-warn'}`} role="status">
          {t(`auth.ended.${ended}`)}
        </p>
      )}
      <form onSubmit={submit} noValidate={false}>
        <Field label={t('auth.email')}>
          {({ id, describedBy }) => (
            <input id={id} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} aria-describedby={describedBy} />
          )}
        </Field>
        <Field label={t('auth.password')}>
          {({ id }) => <input id={id} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        {error !== null && <ErrorBox error={error} />}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? t('auth.loggingIn') : t('auth.login')}
        </button>
      </form>
      <p className="auth-switch">
        {t('auth.noAccount')} <Link to="/signup">{t('auth.goSignup')}</Link>
      </p>
    </div>
  );
}

export function SignupScreen() {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [touched, setTouched] = useState(false);
  // The first key is shown before the session starts, so nothing navigates away from it (it is shown once).
  const [created, setCreated] = useState<{ key: NewApiKey; token: string; expiresIn: number } | null>(null);
  const shortPassword = password.length > 0 && password.length < 10;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (password.length < 10) return;
    setBusy(true);
    setError(null);
    try {
      const user = await unwrap(api.POST('/v1/users', { body: { email: email.trim(), password, name: name.trim() } }));
      const login = await unwrap(api.POST('/v1/login', { body: { email: email.trim(), password } }));
      setCreated({ key: user.default_api_key, token: login.token, expiresIn: login.expires_in });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <div className="auth-card card">
        <ScreenHead title={t('auth.firstKeyTitle')} intro={t('auth.firstKeyIntro')} />
        <SecretReveal
          secret={created.key.key}
          onDone={() => {
            startSession(created.token, created.expiresIn);
            navigate('/onboarding', { replace: true });
          }}
          doneLabel={t('auth.continue')}
        />
      </div>
    );
  }

  return (
    <div className="auth-card card">
      <ScreenHead title={t('auth.signupTitle')} intro={t('app.tagline')} />
      <form onSubmit={submit}>
        <Field label={t('auth.name')}>
          {({ id }) => <input id={id} autoComplete="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label={t('auth.email')}>
          {({ id }) => <input id={id} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label={t('auth.password')} hint={t('auth.passwordHint')} error={(touched || shortPassword) && password.length < 10 && password.length > 0 ? t('auth.passwordShort') : null}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="password"
              autoComplete="new-password"
              required
              minLength={10}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              onBlur={() => setTouched(true)}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        {error !== null && <ErrorBox error={error} />}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? t('auth.signingUp') : t('auth.signup')}
        </button>
      </form>
      <p className="auth-switch">
        {t('auth.haveAccount')} <Link to="/login">{t('auth.goLogin')}</Link>
      </p>
    </div>
  );
}
