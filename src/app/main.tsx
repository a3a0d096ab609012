import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Shell } from './Shell';
import { applyTheme, initialTheme } from '../ui/ThemeToggle';
import { AppErrorBoundary } from './ErrorBoundary';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx from the API server is an answer, not a glitch: do not retry it.
    queries: { retry: (n, err) => n < 2 && !(err && typeof err === 'object' && 'httpStatus' in err && Number(err.httpStatus) < 500), refetchOnWindowFocus: false },
  },
});

// Before the first render, so that nothing paints in the wrong theme.
applyTheme(initialTheme());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <Shell />
      </QueryClientProvider>
    </AppErrorBoundary>
  </StrictMode>,
);
