// Live watch panes: any number of watches side by side, each its own WatchSession, all carried
// over the one /proxy/mux WebSocket so that they hold none of the browser's six connections.
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { navigate, type Route } from '../../routing';
import { capabilitiesQuery, describeRefusal } from '../../k8s/capabilities';
import { allResources, discoveryQuery } from '../../k8s/discovery';
import { START_MODES, type StartMode } from '../../k8s/watch';
import { ErrorBox } from '../../ui/ErrorBox';
import { DEFAULT_MAX_EVENTS, type PaneConfig, PANES_KEY, parsePanes, serializePanes } from './panes';
import { WatchPane } from './WatchPane';
import { watchFormats, type WatchFormatId } from '../../codecs/formats';
import './watch.css';

export function WatchView({ route, context }: { route: Route; context: string }) {
  const panes = useMemo(() => parsePanes(route.extra[PANES_KEY]), [route.extra]);
  const setPanes = (next: PaneConfig[], replace = false) => navigate({ extra: { [PANES_KEY]: serializePanes(next) } }, { replace });
  return (
    <section className="watch-view">
      <h2>Watch</h2>
      <AddPaneForm route={route} context={context} onAdd={(p) => setPanes([...panes, p])} />
      {panes.length === 0 ? (
        <p className="muted">No watches yet: pick a resource and how to start, then add a pane. Panes live in the URL, so a set of them can be bookmarked.</p>
      ) : (
        <div className="watch-grid">
          {panes.map((p) => (
            <WatchPane
              key={p.id}
              context={context}
              pane={p}
              onChange={(next) => setPanes(panes.map((x) => (x.id === p.id ? next : x)), true)}
              onClose={() => setPanes(panes.filter((x) => x.id !== p.id))}
            />
          ))}
        </div>
      )}
    </section>
  );
}

function AddPaneForm({ route, context, onAdd }: { route: Route; context: string; onAdd: (p: PaneConfig) => void }) {
  const discovery = useQuery(discoveryQuery(context));
  const watchable = useMemo(() => (discovery.data ? allResources(discovery.data).filter((r) => r.verbs.includes('watch') && r.verbs.includes('list')) : []), [discovery.data]);
  const routeRes = route.resource ? `${route.group ?? ''}/${route.version ?? ''}/${route.resource}` : '';
  const [res, setRes] = useState(routeRes || '/v1/configmaps');
  const [namespace, setNamespace] = useState(route.namespace ?? '');
  const [name, setName] = useState(route.name ?? '');
  const [labelSelector, setLabelSelector] = useState('');
  const [fieldSelector, setFieldSelector] = useState('');
  const [mode, setMode] = useState<StartMode>('list-watch');
  const [rv, setRv] = useState('');
  const [bookmarks, setBookmarks] = useState(true);
  const [timeoutSeconds, setTimeoutSeconds] = useState('');
  const [asTable, setAsTable] = useState(false);
  const [encoding, setEncoding] = useState<WatchFormatId>('json');
  const [max, setMax] = useState(String(DEFAULT_MAX_EVENTS));

  const [group, version, resource] = res.split('/') as [string, string, string];
  const info = watchable.find((r) => r.group === group && r.version === version && r.resource === resource);
  const namespaced = info?.namespaced ?? true;
  const modeInfo = START_MODES.find((m) => m.mode === mode)!;
  // Asked of the server, not assumed: a v1.33 server (or one with WatchList off) refuses streaming lists.
  const caps = useQuery(capabilitiesQuery(context, route.namespace));
  const streamRefused = caps.data?.watchList.answer === 'no' ? caps.data.watchList : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onAdd({
      id: Math.random().toString(36).slice(2, 8),
      group,
      version,
      resource,
      namespace: namespaced && namespace ? namespace : undefined,
      name: name || undefined,
      labelSelector: labelSelector || undefined,
      fieldSelector: fieldSelector || undefined,
      mode,
      resourceVersion: mode === 'watch-exact' ? rv : undefined,
      bookmarks: mode === 'stream' ? true : bookmarks,
      timeoutSeconds: Number(timeoutSeconds) > 0 ? Number(timeoutSeconds) : undefined,
      asTable: asTable && encoding === 'json',
      ...(encoding === 'protobuf' ? { encoding: 'protobuf' as const } : {}),
      max: Number(max) >= 1 ? Math.floor(Number(max)) : DEFAULT_MAX_EVENTS,
    });
  };

  return (
    <form className="watch-form" aria-label="New watch" onSubmit={submit}>
      {discovery.error ? <ErrorBox error={discovery.error} title="Could not read discovery" /> : null}
      <label>
        <span>Resource</span>
        <select aria-label="Resource" value={res} onChange={(e) => setRes(e.target.value)}>
          {!watchable.some((r) => `${r.group}/${r.version}/${r.resource}` === res) && <option value={res}>{res}</option>}
          {watchable.map((r) => {
            const v = `${r.group}/${r.version}/${r.resource}`;
            return (
              <option key={v} value={v}>
                {r.resource}
                {r.group ? `.${r.group}` : ''} ({r.group ? `${r.group}/` : ''}
                {r.version})
              </option>
            );
          })}
        </select>
      </label>
      <label>
        <span>Namespace</span>
        <input aria-label="Watch namespace" value={namespaced ? namespace : ''} disabled={!namespaced} placeholder={namespaced ? 'all namespaces' : 'cluster-scoped'} onChange={(e) => setNamespace(e.target.value)} />
      </label>
      <label>
        <span>Name</span>
        <input aria-label="Object name" value={name} placeholder="all objects" title="One object: fieldSelector=metadata.name=<name>" onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        <span>Label selector</span>
        <input aria-label="Label selector" value={labelSelector} placeholder="app=web,tier!=db" onChange={(e) => setLabelSelector(e.target.value)} />
      </label>
      <label>
        <span>Field selector</span>
        <input aria-label="Field selector" value={fieldSelector} placeholder="metadata.name=x" onChange={(e) => setFieldSelector(e.target.value)} />
      </label>
      <label>
        <span>Start</span>
        <select aria-label="Start" value={mode} onChange={(e) => setMode(e.target.value as StartMode)}>
          {START_MODES.map((m) => (
            <option key={m.mode} value={m.mode}>
              {m.label}
              {m.mode === 'stream' && streamRefused ? ` (refused by this server: ${streamRefused.httpStatus} ${streamRefused.status?.reason ?? ''})` : ''}
            </option>
          ))}
        </select>
      </label>
      {mode === 'watch-exact' && (
        <label>
          <span>resourceVersion</span>
          <input aria-label="Start resourceVersion" value={rv} required onChange={(e) => setRv(e.target.value)} />
        </label>
      )}
      <label className="check">
        <input type="checkbox" checked={mode === 'stream' ? true : bookmarks} disabled={mode === 'stream'} onChange={(e) => setBookmarks(e.target.checked)} />
        <span>Bookmarks (allowWatchBookmarks)</span>
      </label>
      <label>
        <span>timeoutSeconds</span>
        <input aria-label="timeoutSeconds" inputMode="numeric" value={timeoutSeconds} placeholder="server default" onChange={(e) => setTimeoutSeconds(e.target.value)} />
      </label>
      <label>
        <span>Encoding</span>
        <select aria-label="Encoding" value={encoding} onChange={(e) => setEncoding(e.target.value as WatchFormatId)}>
          {watchFormats().map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <label className="check" title={encoding === 'protobuf' ? 'The server serves Tables as JSON only: a Protobuf watch has no as=Table form.' : undefined}>
        <input type="checkbox" checked={asTable && encoding === 'json'} disabled={encoding === 'protobuf'} onChange={(e) => setAsTable(e.target.checked)} />
        <span>Table rows (as=Table)</span>
      </label>
      <label>
        <span>Keep last</span>
        <input aria-label="Keep last events" inputMode="numeric" value={max} onChange={(e) => setMax(e.target.value)} />
      </label>
      <button type="submit">Add watch</button>
      <p className="muted small watch-semantic">{modeInfo.semantic}</p>
      {encoding === 'protobuf' && (
        <p className="small watch-semantic" role="note" aria-label="Protobuf encoding">
          Protobuf: the watch asks for <code>application/vnd.kubernetes.protobuf;type=watch</code> (JSON as the fallback: custom resources have no Protobuf form) and the pane reads only each event’s
          metadata; an event’s whole object is decoded when you open it, with its bytes. No server columns: the server serves Tables (as=Table) as JSON only, so the state shows
          what the pane reads itself (namespace/name, resourceVersion, creation time).{mode === 'list-watch' ? ' The list before the watch is read as JSON.' : ''}
        </p>
      )}
      {mode === 'stream' && streamRefused && (
        <p className="small watch-semantic" role="note" aria-label="Streaming list refused">
          This server refused a streaming list when asked ({describeRefusal(streamRefused)}). A pane started this way shows that refusal and falls back to List, then watch.
        </p>
      )}
    </form>
  );
}
