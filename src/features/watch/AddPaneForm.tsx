// The Watch view's "New watch" form: what the pane will ask the server (resource, where, how to
// start, encoding, how much to keep). The form's state and what the server refuses are
// useAddPaneForm; the fields are small panels.
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import type { Route } from '../../routing';
import { capabilitiesQuery, describeRefusal, type Probe } from '../../k8s/capabilities';
import { allResources, discoveryQuery } from '../../k8s/discovery';
import { START_MODES, type StartMode } from '../../k8s/watch';
import { ErrorBox } from '../../ui/ErrorBox';
import { DEFAULT_MAX_EVENTS, type PaneConfig } from './panes';
import { watchFormats, type WatchFormatId } from '../../codecs/formats';

/** The form's fields as typed (numbers stay text until the pane is added). */
interface PaneDraft {
  res: string;
  namespace: string;
  name: string;
  labelSelector: string;
  fieldSelector: string;
  mode: StartMode;
  rv: string;
  bookmarks: boolean;
  timeoutSeconds: string;
  asTable: boolean;
  encoding: WatchFormatId;
  max: string;
}

type SetField = <K extends keyof PaneDraft>(k: K, v: PaneDraft[K]) => void;

function useAddPaneForm(route: Route, context: string, onAdd: (p: PaneConfig) => void) {
  const discovery = useQuery(discoveryQuery(context));
  const watchable = useMemo(() => (discovery.data ? allResources(discovery.data).filter((r) => r.verbs.includes('watch') && r.verbs.includes('list')) : []), [discovery.data]);
  const routeRes = route.resource ? `${route.group ?? ''}/${route.version ?? ''}/${route.resource}` : '';
  const [d, setDraft] = useState<PaneDraft>(() => ({
    res: routeRes || '/v1/configmaps',
    namespace: route.namespace ?? '',
    name: route.name ?? '',
    labelSelector: '',
    fieldSelector: '',
    mode: 'list-watch',
    rv: '',
    bookmarks: true,
    timeoutSeconds: '',
    asTable: false,
    encoding: 'json',
    max: String(DEFAULT_MAX_EVENTS),
  }));
  const set: SetField = (k, v) => setDraft((x) => ({ ...x, [k]: v }));
  const { res, namespace, name, labelSelector, fieldSelector, mode, rv, bookmarks, timeoutSeconds, asTable, encoding, max } = d;

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

  return { d, set, discovery, watchable, namespaced, modeInfo, streamRefused, submit };
}

export function AddPaneForm({ route, context, onAdd }: { route: Route; context: string; onAdd: (p: PaneConfig) => void }) {
  const f = useAddPaneForm(route, context, onAdd);
  const { d, set, discovery, streamRefused } = f;
  const { mode, encoding } = d;
  return (
    <form className="watch-form" aria-label="New watch" onSubmit={f.submit}>
      {discovery.error ? <ErrorBox error={discovery.error} title="Could not read discovery" /> : null}
      <ResourceField res={d.res} watchable={f.watchable} onChange={(v) => set('res', v)} />
      <WhereFields d={d} set={set} namespaced={f.namespaced} />
      <StartFields d={d} set={set} streamRefused={streamRefused} />
      <button type="submit">Add watch</button>
      <p className="muted small watch-semantic">{f.modeInfo.semantic}</p>
      {encoding === 'protobuf' && (
        <p className="small watch-semantic" role="note" aria-label="Protobuf encoding">
          Protobuf: the watch asks for <code>application/vnd.kubernetes.protobuf;type=watch</code> (JSON as the fallback: custom resources have no Protobuf form) and the pane reads only each event’s metadata; an event’s whole object is decoded when
          you open it, with its bytes. No server columns: the server serves Tables (as=Table) as JSON only, so the state shows what the pane reads itself (namespace/name, resourceVersion, creation time).
          {mode === 'list-watch' ? ' The list before the watch is read as JSON.' : ''}
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

function ResourceField({ res, watchable, onChange }: { res: string; watchable: ReturnType<typeof allResources>; onChange: (v: string) => void }) {
  return (
    <label>
      <span>Resource</span>
      <select aria-label="Resource" value={res} onChange={(e) => onChange(e.target.value)}>
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
  );
}

function WhereFields({ d, set, namespaced }: { d: PaneDraft; set: SetField; namespaced: boolean }) {
  const { namespace, name, labelSelector, fieldSelector } = d;
  return (
    <>
      <label>
        <span>Namespace</span>
        <input aria-label="Watch namespace" value={namespaced ? namespace : ''} disabled={!namespaced} placeholder={namespaced ? 'all namespaces' : 'cluster-scoped'} onChange={(e) => set('namespace', e.target.value)} />
      </label>
      <label>
        <span>Name</span>
        <input aria-label="Object name" value={name} placeholder="all objects" title="One object: fieldSelector=metadata.name=<name>" onChange={(e) => set('name', e.target.value)} />
      </label>
      <label>
        <span>Label selector</span>
        <input aria-label="Label selector" value={labelSelector} placeholder="app=web,tier!=db" onChange={(e) => set('labelSelector', e.target.value)} />
      </label>
      <label>
        <span>Field selector</span>
        <input aria-label="Field selector" value={fieldSelector} placeholder="metadata.name=x" onChange={(e) => set('fieldSelector', e.target.value)} />
      </label>
    </>
  );
}

function StartFields({ d, set, streamRefused }: { d: PaneDraft; set: SetField; streamRefused: Probe | undefined }) {
  const { mode, rv, bookmarks, timeoutSeconds, encoding, asTable, max } = d;
  return (
    <>
      <label>
        <span>Start</span>
        <select aria-label="Start" value={mode} onChange={(e) => set('mode', e.target.value as StartMode)}>
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
          <input aria-label="Start resourceVersion" value={rv} required onChange={(e) => set('rv', e.target.value)} />
        </label>
      )}
      <label className="check">
        <input type="checkbox" checked={mode === 'stream' ? true : bookmarks} disabled={mode === 'stream'} onChange={(e) => set('bookmarks', e.target.checked)} />
        <span>Bookmarks (allowWatchBookmarks)</span>
      </label>
      <label>
        <span>timeoutSeconds</span>
        <input aria-label="timeoutSeconds" inputMode="numeric" value={timeoutSeconds} placeholder="server default" onChange={(e) => set('timeoutSeconds', e.target.value)} />
      </label>
      <label>
        <span>Encoding</span>
        <select aria-label="Encoding" value={encoding} onChange={(e) => set('encoding', e.target.value as WatchFormatId)}>
          {watchFormats().map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <label className="check" title={encoding === 'protobuf' ? 'The server serves Tables as JSON only: a Protobuf watch has no as=Table form.' : undefined}>
        <input type="checkbox" checked={asTable && encoding === 'json'} disabled={encoding === 'protobuf'} onChange={(e) => set('asTable', e.target.checked)} />
        <span>Table rows (as=Table)</span>
      </label>
      <label>
        <span>Keep last</span>
        <input aria-label="Keep last events" inputMode="numeric" value={max} onChange={(e) => set('max', e.target.value)} />
      </label>
    </>
  );
}
