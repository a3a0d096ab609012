import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import { followInAppLinks, hrefFor, navigate, type Route, type View, VIEWS } from '../routing';
import { ErrorBox } from '../ui/ErrorBox';
import { ReplayBar } from '../features/record';
import { focusMainAction } from './mainAction';
import { usePaletteKeys, useViewKeys } from './shellKeys';
import { TopBar } from './TopBar';
import { useShell } from './useShell';

// Each feature is its own chunk: the console's Monaco editor, for one, is large.
const loaders = {
  discovery: () => import('../features/discovery/DiscoveryView').then((m) => ({ default: m.DiscoveryView })),
  console: () => import('../features/console/ConsoleView').then((m) => ({ default: m.ConsoleView })),
  lists: () => import('../features/lists/ListsView').then((m) => ({ default: m.ListsView })),
  watch: () => import('../features/watch/WatchView').then((m) => ({ default: m.WatchView })),
  edit: () => import('../features/edit/EditView').then((m) => ({ default: m.EditView })),
  ownership: () => import('../features/ownership/OwnershipView').then((m) => ({ default: m.OwnershipView })),
  lessons: () => import('../features/lessons/LessonsView').then((m) => ({ default: m.LessonsView })),
  encodings: () => import('../features/encodings/EncodingsView').then((m) => ({ default: m.EncodingsView })),
  welcome: () => import('../features/welcome/WelcomeView').then((m) => ({ default: m.WelcomeView })),
  serving: () => import('../features/serving/ServingView').then((m) => ({ default: m.ServingView })),
  clients: () => import('../features/xray/ClientsView').then((m) => ({ default: m.ClientsView })),
} satisfies Record<View, () => Promise<{ default: (p: { route: Route; context: string }) => ReactNode }>>;

const CommandPalette = lazy(() => import('./palette/CommandPalette').then((m) => ({ default: m.CommandPalette })));

const views = Object.fromEntries(Object.entries(loaders).map(([v, load]) => [v, lazy(load)])) as Record<View, React.LazyExoticComponent<(p: { route: Route; context: string }) => ReactNode>>;

/**
 * Starts loading a view's chunk now (the module loader keeps it: the lazy view then finds it
 * loaded or on its way). Called at boot for the URL's view, so that its code arrives while React
 * renders the shell instead of after.
 */
export function preloadView(view: View): void {
  void loaders[view]().catch(() => undefined);
}

const LABELS: Record<View, string> = {
  welcome: 'Welcome',
  discovery: 'Discovery',
  console: 'Console',
  lists: 'Lists',
  watch: 'Watch',
  edit: 'Edit',
  ownership: 'Ownership',
  lessons: 'Lessons',
  encodings: 'Encodings',
  serving: 'Serving',
  clients: 'Clients',
};
const PALETTE_VIEWS = VIEWS.map((v) => ({ view: v, label: LABELS[v] }));

/** `bootReplayProblem`: why the recording a `?replay=` link named could not be opened at start. */
export function Shell({ bootReplayProblem }: { bootReplayProblem?: string } = {}) {
  const s = useShell(bootReplayProblem);
  const { route, contexts, context, replay, replayProblem } = s;
  // Every in-app link changes the route in place: a page load would end a recording and every watch.
  useEffect(() => followInAppLinks(document), []);

  useViewKeys();
  const [palette, setPalette] = useState(false);
  usePaletteKeys(useCallback(() => setPalette(true), []));

  return (
    <div className="shell">
      <SkipLinks openPalette={() => setPalette(true)} />
      {palette && (
        <Suspense fallback={null}>
          <CommandPalette route={route} context={context} contexts={(contexts.data?.contexts ?? []).map((c) => c.name)} views={PALETTE_VIEWS} onClose={() => setPalette(false)} />
        </Suspense>
      )}
      <TopBar s={s} />
      {replay && (
        <ReplayBar
          session={replay}
          onLeave={() => {
            // Back to the live explorer: the page loads anew, without the recording.
            location.assign(location.pathname);
          }}
        />
      )}
      {replayProblem && <ErrorBox error={new Error(replayProblem)} title="Could not open the recording" />}
      <ViewTabs route={route} />
      <main className="content" id="content" tabIndex={-1} aria-labelledby="view-title">
        {/* One h1 per view, named as its tab; the views' own headings are h2 and below. */}
        <h1 id="view-title" className="visually-hidden">
          {LABELS[route.view]}
        </h1>
        <ViewOrWhyNot s={s} />
      </main>
    </div>
  );
}

function SkipLinks({ openPalette }: { openPalette: () => void }) {
  return (
    <>
      {/* The first Tab stop: past the context pickers and the view tabs, straight to the view. */}
      <a
        className="skip-link"
        href="#content"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('content')?.focus();
        }}
      >
        Skip to content
      </a>
      <a
        className="skip-link"
        href="#content"
        onClick={(e) => {
          e.preventDefault();
          focusMainAction(Date.now());
        }}
      >
        Skip to the main action
      </a>
      <a
        className="skip-link"
        href="#content"
        onClick={(e) => {
          e.preventDefault();
          openPalette();
        }}
      >
        Go to… (Ctrl+K)
      </a>
    </>
  );
}

function ViewTabs({ route }: { route: Route }) {
  return (
    <nav className="tabs" aria-label="Views">
      {VIEWS.map((v, i) => (
        <a
          key={v}
          // Ten digits for the first ten views; the eleventh (Clients) is a click or the palette away.
          title={i < 10 ? `Alt+${(i + 1) % 10}` : undefined}
          href={hrefFor({ view: v, context: route.context, namespace: route.namespace, allNamespaces: !!route.allNamespaces, group: route.group, version: route.version, resource: route.resource, name: route.name })}
          aria-current={route.view === v ? 'page' : undefined}
          onClick={(e) => {
            if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
            e.preventDefault();
            navigate({ view: v }, { keepExtra: false });
          }}
        >
          {LABELS[v]}
        </a>
      ))}
    </nav>
  );
}

/** The view, or why it cannot be shown (no contexts, a context the kubeconfig does not have). */
function ViewOrWhyNot({ s }: { s: ReturnType<typeof useShell> }) {
  const { route, contexts, context, replay, epoch, unknownContext } = s;
  const View = views[route.view];
  return contexts.error ? (
    <ErrorBox error={contexts.error} title="Could not read the contexts from the proxy" />
  ) : contexts.data?.replay && !replay ? (
    <p className="muted">Opening the recording…</p>
  ) : !context ? (
    <p className="muted">{contexts.isLoading ? 'Loading contexts…' : 'No context in the kubeconfig.'}</p>
  ) : unknownContext ? (
    <p className="error-box" role="alert" data-testid="unknown-context">
      There is no context “{unknownContext}” in this explorer’s kubeconfig (the link names one it does not have). Pick one of{' '}
      {contexts.data!.contexts.map((c, i) => (
        <span key={c.name}>
          {i > 0 && ', '}
          <a href={hrefFor({ ...route, context: c.name, namespace: c.namespace })}>{c.name}</a>
        </span>
      ))}
      .
    </p>
  ) : (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <View key={`${context} ${epoch}`} route={route} context={context} />
    </Suspense>
  );
}
