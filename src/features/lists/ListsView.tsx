// The Lists view: one resource, listed the way the server renders it (Table), in chunks whose
// ListMeta is shown, with selectors, a namespace scope and three representations whose response
// sizes can be compared. Everything the view shows is addressable: its settings live in the URL.
import { hrefFor, navigate, type Route } from '../../routing';
import { downBecause } from '../../k8s/discovery';
import { type ListMode, rowKey } from '../../k8s/lists';
import { DEFAULT_LIMIT } from './listRequest';
import { ErrorBox } from '../../ui/ErrorBox';
import { KubeApiError } from '../../k8s/client';
import { ForbiddenHint } from './ForbiddenHint';
import { listFailedTitle, QueryForm } from './QueryForm';
import { ObjectView } from './ObjectView';
import { PagesPanel } from './PagesPanel';
import { ResourcePicker } from './ResourcePicker';
import { SizeCompare } from './SizeCompare';
import { VirtualTable } from './VirtualTable';
import { useListPager, useListRows, useRowLinks } from './useListView';
import './lists.css';

const MODES: { mode: ListMode; label: string; help: string }[] = [
  { mode: 'table', label: 'Table', help: 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io, application/json — the server renders the columns' },
  { mode: 'metadata', label: 'Metadata only', help: 'Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1 — metadata of each object, no spec, status or data' },
  { mode: 'full', label: 'Full objects', help: 'Accept: application/json — every object whole' },
];

const setExtra = (extra: Record<string, string>) => navigate({ extra }, { replace: true });

export function ListsView({ route, context }: { route: Route; context: string }) {
  const l = useListPager(route, context);
  const { discovery, x, mode, limit, labelSelector, fieldSelector, api, snap, request } = l;
  const rows = useListRows(x, l.wide, request, l.pager, snap);
  return (
    <section className="lists-view">
      <ListsToolbar route={route} context={context} mode={mode} wide={l.wide} hiddenWide={rows.hiddenWide} />
      <QueryForm
        key={`${x.limit ?? ''}|${labelSelector ?? ''}|${fieldSelector ?? ''}`}
        limit={limit}
        labelSelector={labelSelector ?? ''}
        fieldSelector={fieldSelector ?? ''}
        onApply={(q) => setExtra({ limit: q.limit === String(DEFAULT_LIMIT) ? '' : q.limit, labelSelector: q.labelSelector, fieldSelector: q.fieldSelector })}
      />

      {discovery.error ? <ErrorBox error={discovery.error} title="Discovery failed" /> : null}
      {!route.resource ? (
        <p className="muted">Pick a resource to list.</p>
      ) : discovery.data && !api ? (
        <p role="alert">
          {downBecause(discovery.data, route.group, route.version) ?? (
            <>
              {route.resource} ({route.group ? `${route.group}/` : ''}
              {route.version}) is not served by this cluster.
            </>
          )}
        </p>
      ) : api && !api.verbs.includes('list') ? (
        <p role="alert">{api.resource} does not support the list verb.</p>
      ) : !snap || !request ? (
        <p className="muted">Loading discovery…</p>
      ) : (
        <ListBody route={route} context={context} l={l} snap={snap} request={request} rows={rows} />
      )}
    </section>
  );
}

function ListsToolbar({ route, context, mode, wide, hiddenWide }: { route: Route; context: string; mode: ListMode; wide: boolean; hiddenWide: number }) {
  return (
    <div className="lists-toolbar">
      <ResourcePicker context={context} value={route} onPick={(r) => navigate({ group: r.group, version: r.version, resource: r.resource, name: undefined, extra: { listScope: '' } })} />
      <fieldset className="lists-modes">
        <legend className="sr-only">Representation</legend>
        {MODES.map((m) => (
          <label key={m.mode} title={m.help}>
            <input type="radio" name="lists-mode" checked={mode === m.mode} onChange={() => setExtra({ mode: m.mode === 'table' ? '' : m.mode })} /> {m.label}
          </label>
        ))}
      </fieldset>
      <label className="check" title="Columns with priority > 0, like kubectl -o wide">
        <input type="checkbox" checked={wide} onChange={(e) => setExtra({ wide: e.target.checked ? '1' : '' })} disabled={mode !== 'table'} /> Wide
        {hiddenWide > 0 && !wide ? <span className="muted small"> (+{hiddenWide})</span> : null}
      </label>
    </div>
  );
}

type ListState = ReturnType<typeof useListPager>;

function ListBody({ route, context, l, snap, request, rows }: { route: Route; context: string; l: ListState; snap: NonNullable<ListState['snap']>; request: NonNullable<ListState['request']>; rows: ReturnType<typeof useListRows> }) {
  const { x, mode, labelSelector, fieldSelector, api, known, namespaced, kind, listNamespace } = l;
  const pager = l.pager!;
  const { columns, sort, order, shownRows } = rows;
  const { open, linkFor, closeTo } = useRowLinks(route, listNamespace);
  return (
    <>
      <p className="lists-request small">
        <code>GET {snap.pages[0]?.path.replace(/([?&])continue=[^&]*/, '$1') ?? '…'}</code>{' '}
        <span className="muted">
          Accept:{' '}
          {snap.accept ??
            MODES.find((m) => m.mode === mode)!
              .help.split(' — ')[0]!
              .replace('Accept: ', '')}
        </span>
        {known && !namespaced && route.namespace ? <span className="muted"> — cluster-scoped: the namespace does not apply</span> : null}
      </p>
      {mode === 'table' && snap.pages.length > 0 && !snap.table && (
        <p className="lists-notice" role="note">
          The server did not render a Table for this resource (it answered with {snap.kind}), so generic columns are shown: name, namespace and creation time.
        </p>
      )}
      <PagesPanel
        snap={snap}
        hasSelector={!!(labelSelector || fieldSelector)}
        onNext={() => {
          setExtra({ pages: String(snap.pages.length + 1) });
          void pager!.next();
        }}
        onAll={() => {
          // Kept in the URL (load=all), so that a reload or a shared link lists everything again.
          setExtra({ load: 'all' });
          void pager!.loadAll();
        }}
        onStop={() => {
          setExtra({ load: '' });
          pager!.stopAll();
        }}
        onRestart={() => {
          setExtra({ pages: '', load: '' });
          void pager!.start();
        }}
        onContinueInconsistently={() => void pager!.continueInconsistently()}
      />
      {snap.error ? <ErrorBox error={snap.error} title={listFailedTitle(snap.error, route.group, route.version)} /> : null}
      {snap.error instanceof KubeApiError && snap.error.httpStatus === 403 ? <ForbiddenHint context={context} namespace={listNamespace} namespaced={namespaced} /> : null}
      <SizeCompare key={JSON.stringify(request)} request={request} />
      <FindBar rows={rows} rowCount={snap.rowCount} />
      {mode !== 'table' && snap.sample !== undefined && (
        <details className="lists-sample" key={mode}>
          <summary>First item as received ({snap.kind})</summary>
          <pre aria-label="First item as received">{JSON.stringify(snap.sample, null, 2)}</pre>
        </details>
      )}
      <div className={route.name ? 'lists-split' : undefined}>
        <VirtualTable
          label={`${kind ?? route.resource} list`}
          columns={columns}
          rows={shownRows!}
          rowCount={order ? order.length : snap.rowCount}
          sort={sort}
          onSort={(c) => setExtra({ sort: sort?.column !== c.def.name ? c.def.name : sort.descending ? '' : `-${c.def.name}` })}
          selectedKey={route.name ? rowKey({ name: route.name, namespace: listNamespace ? undefined : route.namespace, cells: [] }) : undefined}
          linkFor={linkFor}
          onOpen={open}
        />
        {route.name && api && (
          <ObjectView
            key={`${route.namespace}/${route.name}`}
            context={context}
            objRef={{ group: api.group, version: api.version, resource: api.resource, namespace: api.namespaced ? route.namespace : undefined, name: route.name }}
            format={x.format === 'json' || x.format === 'kyaml' ? x.format : 'yaml'}
            showManagedFields={x.managedFields === 'show'}
            closeHref={hrefFor(closeTo, true)}
            onClose={() => navigate(closeTo)}
          />
        )}
      </div>
    </>
  );
}

/** Find in the rows loaded, and how many rows are shown of how many. */
function FindBar({ rows, rowCount }: { rows: ReturnType<typeof useListRows>; rowCount: number }) {
  const { find, sort, orderRequest, rowOrder, order } = rows;
  return (
    <div className="lists-find small">
      <input type="search" aria-label="Find in rows" placeholder="Find in the rows loaded (any column shown)" value={find} onChange={(e) => setExtra({ find: e.target.value })} />
      <span role="note" aria-live="polite" aria-label="Rows shown">
        {orderRequest
          ? rowOrder.busy && !order
            ? `${find.trim() ? 'finding' : 'sorting'} in ${rowCount.toLocaleString()} rows…`
            : `${(order?.length ?? rowCount).toLocaleString()} of ${rowOrder.of.toLocaleString()} rows${find.trim() ? ` contain “${find.trim()}”` : ''}${sort ? `, sorted by ${sort.column}${sort.descending ? ' (descending)' : ''}` : ''}${rowOrder.busy ? ' — updating…' : ''}`
          : null}
      </span>
    </div>
  );
}
