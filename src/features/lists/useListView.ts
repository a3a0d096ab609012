// The Lists view's state: discovery (or what it said last time in this tab), the pager of the
// list the URL names and its snapshot, the columns shown, the rows' order on the page, and the
// links of the rows. ListsView.tsx renders it.
import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { navigate, parseRoute, type Route, serializeRoute } from '../../routing';
import { discoveryQuery, findResource } from '../../k8s/discovery';
import { ListPager, type ListRow, type PagerSnapshot, type PagerRequest } from '../../k8s/lists';
import { claimBootPager } from './boot';
import { listModeOf, listNamespaceOf, pagerRequestFor, pagesOf, parseLimit } from './listRequest';
import { readScope, sessionStore, writeScope } from './scopeCache';
import type { VisibleColumn } from './VirtualTable';
import type { OrderRequest } from './rowOrder';
import { useRowOrder } from './useRowOrder';

/** The list the URL names: discovery's word on the resource, its pager and the pager's snapshot. */
export function useListPager(route: Route, context: string) {
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
  return { discovery, x, mode, limit, labelSelector, fieldSelector, wide, api, listNamespace, known, namespaced, kind, request, pager, snap };
}

/** The columns shown and the rows' order on the page (sort and find over the rows loaded so far). */
export function useListRows(x: Record<string, string>, wide: boolean, request: PagerRequest | null, pager: ListPager | null, snap: PagerSnapshot | null) {
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
    () => (sortColumn || find.trim() ? { sortCell: sortColumn?.cell, sortType: sortColumn?.def.type, descending: sort?.descending, filter: find.trim() || undefined, filterCells: find.trim() ? columns.map((c) => c.cell) : undefined } : null),
    [sortColumn, sort?.descending, find, columns],
  );
  const rowOrder = useRowOrder(pager?.rows ?? emptyCells, snap?.rowCount ?? 0, orderRequest);
  const order = rowOrder.order;
  const store = pager?.rows;
  const shownRows = useMemo(() => (order && store ? { row: (i: number) => store.row(order[i]!) } : store), [order, store]);
  return { columns, hiddenWide, find, sort, orderRequest, rowOrder, order, shownRows };
}

/** Opening a row, and each row's link: the current URL with the row's name. */
export function useRowLinks(route: Route, listNamespace: string | undefined) {
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
  return { open, linkFor, closeTo };
}

const noSubscribe = () => () => {};
const emptyCells = { length: 0, cell: () => undefined };
const noSnapshot = () => null;
