// The Lists view: one resource, listed the way the server renders it (Table), in chunks whose
// ListMeta is shown, with selectors, a namespace scope and three representations whose response
// sizes can be compared. Everything the view shows is addressable: its settings live in the URL.
import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { hrefFor, navigate, parseRoute, type Route, serializeRoute } from '../../routing';
import { discoveryQuery, downBecause, findResource, refusalSentence } from '../../k8s/discovery';
import { type ListMode, ListPager, type ListRow, type PagerRequest, rowKey } from '../../k8s/lists';
import { claimBootPager } from './boot';
import { DEFAULT_LIMIT, listModeOf, listNamespaceOf, pagerRequestFor, pagesOf, parseLimit } from './listRequest';
import { ErrorBox } from '../../ui/ErrorBox';
import { KubeApiError } from '../../k8s/client';
import { ForbiddenHint } from './ForbiddenHint';
import { ObjectView } from './ObjectView';
import { PagesPanel } from './PagesPanel';
import { ResourcePicker } from './ResourcePicker';
import { readScope, sessionStore, writeScope } from './scopeCache';
import { SizeCompare } from './SizeCompare';
import { type VisibleColumn, VirtualTable } from './VirtualTable';
import type { OrderRequest } from './rowOrder';
import { useRowOrder } from './useRowOrder';
import './lists.css';

const MODES: { mode: ListMode; label: string; help: string }[] = [
  { mode: 'table', label: 'Table', help: 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io, application/json — the server renders the columns' },
  { mode: 'metadata', label: 'Metadata only', help: 'Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1 — metadata of each object, no spec, status or data' },
  { mode: 'full', label: 'Full objects', help: 'Accept: application/json — every object whole' },
];

export function ListsView({ route, context }: { route: Route; context: string }) {
  // The list waits for discovery (is the resource namespaced?): ask for it while this first
  // renders, not after the first paint as useQuery alone would.
  usePrefetchQuery(discoveryQuery(context));
  const discovery = useQuery(discoveryQuery(context));
  const x = route.extra;
  const mode = listModeOf(route);
  const limit = parseLimit(x.limit);
  const labelSelector = x.labelSelector || undefined;
  const fieldSelector = x.fieldSelector || undefined;
  const wide = x.wide === '1';
  const api = findResource(discovery.data, route.group, route.version, route.resource);
  // Opening an object from an all-namespaces list puts the object's namespace into the route;
  // listScope=all keeps the list itself across all namespaces meanwhile.
  const listNamespace = listNamespaceOf(route);

  // Until discovery answers, what it said last time in this tab (a reload, a shared link): the
  // first chunk need not wait for it. Discovery decides once it is in; a different answer
  // restarts the list (other primitives below), no answer (not served) shows as such.
  const cached = useMemo(() => readScope(sessionStore(), context, route.group, route.version, route.resource), [context, route.group, route.version, route.resource]);
  useEffect(() => {
    if (api) writeScope(sessionStore(), context, api.group, api.version, api.resource, { namespaced: api.namespaced, kind: api.kind });
  }, [context, api]);
  // Keyed on primitives, so that a discovery refetch (a new `api` object) does not restart the list.
  const known = discovery.data ? !!api : !!cached;
  const namespaced = api?.namespaced ?? cached?.namespaced ?? false;
  const kind = api?.kind ?? cached?.kind;
  const request: PagerRequest | null = useMemo(
    () => (known ? pagerRequestFor(route, context, namespaced) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the primitives pagerRequestFor reads, not on the route object
    [known, namespaced, context, route.group, route.version, route.resource, listNamespace, mode, limit, labelSelector, fieldSelector],
  );

  // The boot's pager when it started this very list (boot.ts), else a new one.
  const pager = useMemo(() => (request ? (claimBootPager(request) ?? new ListPager(request)) : null), [request]);
  // Read when a list starts only (through a ref): changing it later must not restart the list.
  const autoAll = useRef(false);
  autoAll.current = x.load === 'all';
  // How many chunks the user loaded with "Next page" (`pages=`), loaded again after a reload.
  const autoPages = useRef(1);
  autoPages.current = pagesOf(route);
  // A layout effect: the first chunk is asked for before the browser lays out and paints the view.
  useLayoutEffect(() => {
    if (!pager) return;
    if (!pager.running) void pager.start({ all: autoAll.current, pages: autoPages.current });
    return () => pager.dispose();
  }, [pager]);
  const snap = useSyncExternalStore(pager?.subscribe ?? noSubscribe, pager?.getSnapshot ?? noSnapshot);

  // Keyed on the column definitions (the first chunk's, the same array for the whole list), not
  // on the snapshot: a new chunk must not hand the table new columns, which would render every
  // row on screen again.
  const serverColumns = snap?.columns;
  const isTable = snap?.table ?? false;
  const columns: VisibleColumn[] = useMemo(() => {
    if (!serverColumns) return [];
    const cols: VisibleColumn[] = serverColumns.map((def, cell) => ({ def, cell })).filter((c) => wide || c.def.priority === 0);
    if (isTable && request?.includeObject === 'Metadata') {
      const nameAt = cols.findIndex((c) => c.def.format === 'name');
      cols.splice(nameAt + 1, 0, { cell: -1, def: { name: 'Namespace', type: 'string', format: '', priority: 0, description: 'metadata.namespace, from the object metadata the server included (includeObject=Metadata)' } });
    }
    return cols;
  }, [serverColumns, isTable, wide, request?.includeObject]);
  const hiddenWide = serverColumns ? serverColumns.filter((c) => c.priority > 0).length : 0;

  // Sort and filter on the page, over the rows loaded so far (the server lists in namespace/name
  // order and filters by selectors only): `sort=<column>` or `sort=-<column>`, `find=<text>`.
  const sortParam = x.sort ?? '';
  const find = x.find ?? '';
  const sortColumn = columns.find((c) => c.def.name === sortParam.replace(/^-/, ''));
  const sort = sortColumn ? { column: sortColumn.def.name, descending: sortParam.startsWith('-') } : undefined;
  const orderRequest: OrderRequest | null = useMemo(
    () =>
      sortColumn || find.trim()
        ? { sortCell: sortColumn?.cell, sortType: sortColumn?.def.type, descending: sort?.descending, filter: find.trim() || undefined, filterCells: find.trim() ? columns.map((c) => c.cell) : undefined }
        : null,
    [sortColumn, sort?.descending, find, columns],
  );
  const rowOrder = useRowOrder(pager?.rows ?? emptyCells, snap?.rowCount ?? 0, orderRequest);
  const order = rowOrder.order;
  const store = pager?.rows;
  const shownRows = useMemo(() => (order && store ? { row: (i: number) => store.row(order[i]!) } : store), [order, store]);

  // Stable while the route stays (a chunk arriving re-renders the view, not the rows).
  const routeNamespace = route.namespace;
  const open = useCallback(
    (row: ListRow) => {
      const acrossNamespaces = !!row.namespace && !listNamespace;
      navigate({ name: row.name, namespace: row.namespace ?? routeNamespace, extra: acrossNamespaces ? { listScope: 'all' } : {} });
    },
    [listNamespace, routeNamespace],
  );
  // A row's link is the current URL with the row's name (what hrefFor builds), the URL read once
  // per route, not once per row: every row scrolled into view asks for its link.
  const here = useMemo(
    () => parseRoute(location.search),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `route` stands for the URL parseRoute reads
    [route],
  );
  const linkFor = useCallback(
    (row: ListRow) => serializeRoute({ ...here, name: row.name, namespace: row.namespace ?? routeNamespace, extra: row.namespace && !listNamespace ? { ...here.extra, listScope: 'all' } : here.extra }),
    [here, listNamespace, routeNamespace],
  );
  const closeTo = { name: undefined, namespace: listNamespace, extra: { listScope: '' } };

  const setExtra = (extra: Record<string, string>) => navigate({ extra }, { replace: true });

  return (
    <section className="lists-view">
      <div className="lists-toolbar">
        <ResourcePicker
          context={context}
          value={route}
          onPick={(r) => navigate({ group: r.group, version: r.version, resource: r.resource, name: undefined, extra: { listScope: '' } })}
        />
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
        <>
          <p className="lists-request small">
            <code>
              GET {snap.pages[0]?.path.replace(/([?&])continue=[^&]*/, '$1') ?? '…'}
            </code>{' '}
            <span className="muted">Accept: {snap.accept ?? MODES.find((m) => m.mode === mode)!.help.split(' — ')[0]!.replace('Accept: ', '')}</span>
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
          <div className="lists-find small">
            <input type="search" aria-label="Find in rows" placeholder="Find in the rows loaded (any column shown)" value={find} onChange={(e) => setExtra({ find: e.target.value })} />
            <span role="note" aria-live="polite" aria-label="Rows shown">
              {orderRequest
                ? rowOrder.busy && !order
                  ? `${find.trim() ? 'finding' : 'sorting'} in ${snap.rowCount.toLocaleString()} rows…`
                  : `${(order?.length ?? snap.rowCount).toLocaleString()} of ${rowOrder.of.toLocaleString()} rows${find.trim() ? ` contain “${find.trim()}”` : ''}${sort ? `, sorted by ${sort.column}${sort.descending ? ' (descending)' : ''}` : ''}${rowOrder.busy ? ' — updating…' : ''}`
                : null}
            </span>
          </div>
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
      )}
    </section>
  );
}

const noSubscribe = () => () => {};
const emptyCells = { length: 0, cell: () => undefined };
const noSnapshot = () => null;

function QueryForm({ limit, labelSelector, fieldSelector, onApply }: { limit: number | undefined; labelSelector: string; fieldSelector: string; onApply: (q: { limit: string; labelSelector: string; fieldSelector: string }) => void }) {
  const [l, setL] = useState(limit === undefined ? '0' : String(limit));
  const [ls, setLs] = useState(labelSelector);
  const [fs, setFs] = useState(fieldSelector);
  return (
    <form
      className="lists-query"
      onSubmit={(e) => {
        e.preventDefault();
        onApply({ limit: l.trim() || String(DEFAULT_LIMIT), labelSelector: ls.trim(), fieldSelector: fs.trim() });
      }}
    >
      <label>
        Page size (limit)
        <input type="number" min={0} value={l} onChange={(e) => setL(e.target.value)} title="0: no limit, the whole list in one response" />
      </label>
      <label>
        Label selector
        <input value={ls} onChange={(e) => setLs(e.target.value)} placeholder="app=web,tier!=db" />
      </label>
      <label>
        Field selector
        <input value={fs} onChange={(e) => setFs(e.target.value)} placeholder="metadata.name!=x" />
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

/** "List failed", or, for the 503 kube-apiserver answers for an aggregated API server that is down, which group version is down. */
function listFailedTitle(error: unknown, group: string | undefined, version: string | undefined): string {
  if (!(error instanceof KubeApiError) || error.code !== 503 || !version) return 'List failed';
  return `${refusalSentence(group ? `/apis/${group}/${version}` : `/api/${version}`, '', 503) ?? 'List failed'}.`;
}
