// The shell's top bar: the brand, the context and namespace pickers, the context's server, the
// recorder, the connection status and the theme.
import { hrefFor, navigate } from '../routing';
import { ThemeToggle } from '../ui/ThemeToggle';
import { ConnectionStatus } from '../features/status';
import { RecordControl } from '../features/record';
import type { useShell } from './useShell';

export function TopBar({ s }: { s: ReturnType<typeof useShell> }) {
  const { route, contexts, context, ctxInfo, unknownContext, replay } = s;
  return (
    <header className="topbar">
      <a className="brand" href={hrefFor({ view: 'welcome' }, false)} title="The first screen: cluster, access, where to start" aria-current={route.view === 'welcome' ? 'page' : undefined}>
        Kube API Explorer
      </a>
      <label className="picker">
        <span>Context</span>
        <select aria-label="Context" value={context ?? ''} onChange={(e) => navigate({ context: e.target.value, namespace: contexts.data?.contexts.find((c) => c.name === e.target.value)?.namespace })}>
          {unknownContext && <option value={unknownContext}>{unknownContext} (unknown)</option>}
          {contexts.data?.contexts.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name}
              {c.current ? ' (current)' : ''}
            </option>
          ))}
        </select>
      </label>
      <NamespacePicker s={s} />
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
  );
}

function NamespacePicker({ s }: { s: ReturnType<typeof useShell> }) {
  const { route, namespaces, ctxInfo, namespaceForbidden } = s;
  return (
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
          {(namespaces.data ?? (route.namespace ? [route.namespace] : [])).concat(namespaces.data && route.namespace && !namespaces.data.includes(route.namespace) ? [route.namespace] : []).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      )}
    </label>
  );
}
