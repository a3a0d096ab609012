import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { preloadView, Shell } from './Shell';
import { parseRoute } from '../routing';
import { retryDelayMs, shouldRetryRead } from '../k8s/client';
import { installRecordingHooks } from '../k8s/record/install';
import { applyTheme, initialTheme } from '../ui/ThemeToggle';
import { AppErrorBoundary } from './ErrorBoundary';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx from the API server is an answer, not a glitch: not retried, except 429, after the
    // server's Retry-After (src/k8s/client/retry.ts).
    queries: { retry: shouldRetryRead, retryDelay: retryDelayMs, refetchOnWindowFocus: false },
  },
});

// Recording, the tab's journal (time travel) and replay see every exchange from the first request on.
installRecordingHooks();

// Before the first render, so that nothing paints in the wrong theme.
applyTheme(initialTheme());

// What the URL asks for, asked for before the first render: the view's chunk and, when the URL
// names a context, its discovery, which most views wait for (the Lists view, to know whether the
// resource is namespaced). Otherwise both wait for the shell's first render and /proxy/contexts:
// about 150 ms of a 400 ms first row in the Lists bench's waterfall. A context that does not
// exist just gets the proxy's 404 here, not retried, shown by no one.
const bootRoute = parseRoute(location.search);
preloadView(bootRoute.view);

function prefetch(): void {
  if (bootRoute.context && bootRoute.view !== 'welcome') {
    const context = bootRoute.context;
    const discovery = import('../k8s/discovery').then(({ discoveryQuery }) => queryClient.fetchQuery(discoveryQuery(context)));
    discovery.catch(() => undefined);
    // A Lists URL asks for its first chunk now too (features/lists/boot.ts); the view adopts it.
    if (bootRoute.view === 'lists') void import('../features/lists/boot').then((m) => m.bootList(bootRoute, context, discovery)).catch(() => undefined);
  }
}

function render(replayProblem?: string): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <Shell bootReplayProblem={replayProblem} />
        </QueryClientProvider>
      </AppErrorBoundary>
    </StrictMode>,
  );
}

// A link to a moment of a recording (`?replay=server|/path&at=ms`, features/record): the recording
// is opened before anything is asked, so that every answer comes from it.
const replaySource = bootRoute.extra.replay;
if (replaySource) {
  void import('../features/record/open')
    .then((m) => m.openRecordingFrom(replaySource, bootRoute.extra.at !== undefined ? Number(bootRoute.extra.at) : undefined))
    // A link whose recording cannot be read must say so: the page then shows the live cluster, and
    // nothing else would tell the user that this is not the recording they were sent.
    .then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    )
    .then((problem) => {
      prefetch();
      render(problem);
    });
} else {
  prefetch();
  render();
}
