import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { contextNamespaceFor, followInAppLinks, hrefFor, navigate, type Route, useRoute, type View, VIEWS } from '../routing';
import { ErrorBox } from '../ui/ErrorBox';
import { ThemeToggle } from '../ui/ThemeToggle';
import { ConnectionStatus } from '../features/status';
import { openRecordingFrom, RecordControl, ReplayBar, useReplay } from '../features/record';
import { KubeApiError } from '../k8s/client';
import { contextsQuery, namespacesQuery } from '../k8s/cluster';
import { focusMainAction } from './mainAction';

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
} satisfies Record<View, () => Promise<{ default: (p: { route: Route; context: string }) => ReactNode }>>;

const CommandPalette = lazy(() => import('./palette/CommandPalette').then((m) => ({ default: m.CommandPalette })));

/** Whether a key typed here is text (a field, an editor): `:` then types, it does not open the palette. */
function typingIn(el: EventTarget | null): boolean {
  return el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('.monaco-editor'));
}

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
};


const PALETTE_VIEWS = VIEWS.map((v) => ({ view: v, label: LABELS[v] }));

/** The view Alt+<digit> opens: 1…9 the first nine, 0 the tenth (as on the keyboard's row). */
export function viewForDigit(key: string): View | undefined {
  if (!/^[0-9]$/.test(key)) return undefined;
  return VIEWS[(Number(key) + 9) % 10];
}

/** `bootReplayProblem`: why the recording a `?replay=` link named could not be opened at start. */
export function Shell({ bootReplayProblem }: { bootReplayProblem?: string } = {}) {
  const route = useRoute();
  const queryClient = useQueryClient();
  const { session: replay, epoch } = useReplay();
  const contexts = useQuery(contextsQuery());
  const [replayProblem, setReplayProblem] = useState<string | undefined>(bootReplayProblem);

  // Started with --replay FILE: the server has no contexts, only the recording to open.
  const askedServer = useRef(false);
  useEffect(() => {
    if (!contexts.data?.replay || replay || askedServer.current) return;
    askedServer.current = true;
    openRecordingFrom('server', route.extra.at !== undefined ? Number(route.extra.at) : undefined).catch((e: unknown) => setReplayProblem(e instanceof Error ? e.message : String(e)));
  }, [contexts.data?.replay, replay, route.extra.at]);
  // A replay that starts (or ends) changes where every answer comes from: forget them all.
  const shownReplay = useRef(replay);
  useEffect(() => {
    if (shownReplay.current === replay) return;
    shownReplay.current = replay;
    queryClient.removeQueries({ queryKey: ['k8s'] });
    void queryClient.invalidateQueries({ queryKey: ['proxy', 'contexts'] });
  }, [replay, queryClient]);
  // The clock went back: the views start again from the recording (see k8s/record/replay.ts).
  useEffect(() => {
    if (epoch > 0) queryClient.removeQueries({ queryKey: ['k8s'] });
  }, [epoch, queryClient]);

  const context = route.context ?? (contexts.data?.current || contexts.data?.contexts[0]?.name);
  const ctxInfo = contexts.data?.contexts.find((c) => c.name === context);
  // A context named by the URL that the kubeconfig does not have: said so, rather than showing
  // another context in the picker and the proxy's 404 in the view.
  const unknownContext = route.context && contexts.data && !ctxInfo ? route.context : undefined;
  const namespaces = useQuery({ ...namespacesQuery(context ?? ''), enabled: !!context });

  // Put the chosen context into the URL once known, so the view is shareable as it is.
  useEffect(() => {
    // The namespace follows from the context (below).
    if (!route.context && context) navigate({ context }, { replace: true });
  }, [route.context, context]);

  // A link that names the context but no namespace opens in the context's namespace from the
  // kubeconfig, as kubectl does (`kubectl --context X get configmaps` lists X's namespace); all
  // namespaces is asked for by name (`namespace=*`, the picker's "All namespaces", an emptied field).
  const namespaceForbidden = namespaces.error instanceof KubeApiError && namespaces.error.httpStatus === 403;
  const fillNamespace = contextNamespaceFor(route, ctxInfo?.namespace);
  useEffect(() => {
    if (fillNamespace) navigate({ namespace: fillNamespace }, { replace: true });
  }, [fillNamespace]);

  // Every in-app link changes the route in place: a page load would end a recording and every watch.
  useEffect(() => followInAppLinks(document), []);

  // Alt+1…9 and Alt+0 (the tenth) switch views from anywhere, without leaving the keyboard.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const v = viewForDigit(e.key);
      if (v) {
        e.preventDefault();
        navigate({ view: v }, { keepExtra: false });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The command palette: Ctrl+K (Cmd+K) from anywhere, `:` (k9s) where a key is not text.
  const [palette, setPalette] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const ctrlK = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k';
      const colon = e.key === ':' && !e.ctrlKey && !e.metaKey && !e.altKey && !typingIn(e.target);
      if (!ctrlK && !colon) return;
      e.preventDefault();
      // Before a Monaco editor sees it (capture): Ctrl+K is the start of its chords, which it would swallow.
      e.stopPropagation();
      setPalette(true);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  const View = views[route.view];
  return (
    <div className="shell">
      {/* The first Tab stop: past the context pickers and the view tabs, straight to the view. */}
      <a className="skip-link" href="#content" onClick={(e) => {
        e.preventDefault();
        document.getElementById('content')?.focus();
      }}>
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
          setPalette(true);
        }}
      >
        Go to… (Ctrl+K)
      </a>
      {palette && (
        <Suspense fallback={null}>
          <CommandPalette
            route={route}
            context={context}
            contexts={(contexts.data?.contexts ?? []).map((c) => c.name)}
            views={PALETTE_VIEWS}
            onClose={() => setPalette(false)}
          />
        </Suspense>
      )}
      <header className="topbar">
        <a className="brand" href={hrefFor({ view: 'welcome' }, false)} title="The first screen: cluster, access, where to start" aria-current={route.view === 'welcome' ? 'page' : undefined}>
          Kube API Explorer
        </a>
        <label className="picker">
          <span>Context</span>
          <select
            aria-label="Context"
            value={context ?? ''}
            onChange={(e) => navigate({ context: e.target.value, namespace: contexts.data?.contexts.find((c) => c.name === e.target.value)?.namespace })}
          >
            {unknownContext && <option value={unknownContext}>{unknownContext} (unknown)</option>}
            {contexts.data?.contexts.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
                {c.current ? ' (current)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="picker">
          <span>Namespace</span>
          {namespaces.error ? (
            // A user who may not list namespaces (RBAC) can still name one.
            <input
              // Remounted when the route's namespace changes (the context's namespace filled in, Back).
              key={route.namespace ?? ''}
              aria-label="Namespace"
              placeholder={ctxInfo?.namespace ?? 'namespace'}
              defaultValue={route.namespace ?? ''}
              title={`You may not list namespaces with this context${namespaceForbidden ? ' (403 Forbidden)' : ''}; type one${ctxInfo?.namespace ? ` (the kubeconfig names ${ctxInfo.namespace})` : ''}`}
              onKeyDown={(e) => {
                if (e.key === 'Enter') navigate({ namespace: e.currentTarget.value.trim() || undefined });
              }}
              onBlur={(e) => e.currentTarget.value.trim() !== (route.namespace ?? '') && navigate({ namespace: e.currentTarget.value.trim() || undefined })}
            />
          ) : (
            <select aria-label="Namespace" value={route.namespace ?? ''} onChange={(e) => navigate({ namespace: e.target.value || undefined })}>
              <option value="">All namespaces</option>
              {(namespaces.data ?? (route.namespace ? [route.namespace] : []))
                .concat(namespaces.data && route.namespace && !namespaces.data.includes(route.namespace) ? [route.namespace] : [])
                .map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
            </select>
          )}
        </label>
        {ctxInfo && (
          <span className="muted small" title={`cluster ${ctxInfo.cluster}, user ${ctxInfo.user}`}>
            {ctxInfo.server}
          </span>
        )}
        <span className="spacer" />
        {!replay && <RecordControl servers={Object.fromEntries((contexts.data?.contexts ?? []).map((c) => [c.name, c.server]))} />}
        {!replay && <ConnectionStatus context={context} />}
        <ThemeToggle />
      </header>
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
      <nav className="tabs" aria-label="Views">
        {VIEWS.map((v, i) => (
          <a
            key={v}
            title={`Alt+${(i + 1) % 10}`}
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
      <main className="content" id="content" tabIndex={-1} aria-labelledby="view-title">
        {/* One h1 per view, named as its tab; the views' own headings are h2 and below. */}
        <h1 id="view-title" className="visually-hidden">
          {LABELS[route.view]}
        </h1>
        {contexts.error ? (
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
        )}
      </main>
    </div>
  );
}
