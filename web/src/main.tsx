import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/client';
import { App } from './app';
import { I18nProvider } from './lib/i18n';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // Client errors are answers, not glitches: retry only what may pass later (5xx, network). A rate limit is
      // said at once, in plain words, and retried when the service says (ErrorBox) rather than behind a spinner.
      retry: (count, e) => count < 2 && (!(e instanceof ApiError) || e.status === 0 || e.status >= 500),
      retryDelay: (count, e) => (e instanceof ApiError && e.retryAfter ? e.retryAfter * 1000 : 1000 * 2 ** count),
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <App />
      </I18nProvider>
    </QueryClientProvider>
  </StrictMode>,
);
