// The command palette (Ctrl+K, or `:` as in k9s): one text field that jumps to any view, any
// resource discovery lists, an object by name ("cm web"), a lesson, or another context. Fully
// keyboard-driven (arrows, Enter, Escape), an ARIA combobox over a listbox. After the jump, focus
// goes to the view's main action (`data-main-action`: a lesson's "Run all steps"), so that a
// lesson runs in a few key presses from here.
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { kubeJson } from '../../k8s/client';
import { type ApiResource, discoveryQuery } from '../../k8s/discovery';
import { resourcePath } from '../../k8s/paths';
import { navigate, type Route, type View } from '../../routing';
import { focusMainAction } from '../mainAction';
import { kindWord, objectQuery, type PaletteEntry, paletteEntries, rankEntries } from './entries';
import './palette.css';

/** The lessons, loaded with the palette (the catalog is the Lessons view's chunk, not the shell's). */
function useLessons(): { id: string; title: string }[] {
  const [lessons, setLessons] = useState<{ id: string; title: string }[]>([]);
  useEffect(() => {
    let live = true;
    void import('../../features/lessons/LessonsView').then((m) => live && setLessons(m.LESSONS.map((l) => ({ id: l.id, title: l.title }))));
    return () => {
      live = false;
    };
  }, []);
  return lessons;
}

interface NameList {
  items?: { metadata?: { name?: string; namespace?: string } }[];
}

/** Discovery of the context, the same cache entry as every view's; nothing before a context is known. */
const paletteDiscoveryQuery = (context: string | undefined) => {
  const q = discoveryQuery(context ?? '');
  return queryOptions({ ...q, queryFn: context ? q.queryFn : skipToken });
};

/** One metadata-only list of the named resource (names only), in the namespace or across all; nothing until a resource is named. */
const paletteNamesQuery = (context: string | undefined, resource: ApiResource | undefined, ns: string | undefined) =>
  queryOptions({
    queryKey: ['k8s', context, 'palette-names', resource?.group, resource?.version, resource?.resource, ns ?? ''],
    staleTime: 30_000,
    queryFn:
      context && resource
        ? ({ signal }) =>
            kubeJson<NameList>({
              context,
              path: resourcePath({ group: resource.group, version: resource.version, resource: resource.resource, namespace: ns }),
              query: { limit: 500 },
              headers: { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json' },
              signal,
            })
        : skipToken,
  });

export function CommandPalette({ route, context, contexts, views, onClose }: { route: Route; context: string | undefined; contexts: string[]; views: { view: View; label: string }[]; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  // Where the focus was: Escape gives it back.
  const back = useRef(document.activeElement);
  const listId = useId();
  const discovery = useQuery(paletteDiscoveryQuery(context));
  const lessons = useLessons();
  const oq = objectQuery(discovery.data, query);
  const ns = oq?.resource.namespaced ? route.namespace : undefined;
  // One metadata-only list of the named resource (names only), in the current namespace or across all.
  const names = useQuery(paletteNamesQuery(context, oq?.resource, ns));
  const entries = useMemo(
    () =>
      paletteEntries({
        views,
        discovery: discovery.data,
        lessons,
        contexts,
        context,
        objects: oq && names.data ? { resource: oq.resource, items: (names.data.items ?? []).map((i) => ({ name: i.metadata?.name ?? '', namespace: i.metadata?.namespace })) } : undefined,
      }),
    [views, discovery.data, lessons, contexts, context, oq?.resource, names.data], // eslint-disable-line react-hooks/exhaustive-deps -- oq is rebuilt per render; its resource is the same object
  );
  const shown = useMemo(() => rankEntries(entries, query, oq?.name), [entries, query, oq?.name]);
  const current = Math.min(active, Math.max(0, shown.length - 1));

  useEffect(() => input.current?.focus(), []);

  const choose = (e: PaletteEntry | undefined) => {
    if (!e) return;
    onClose();
    navigate(e.to, { keepExtra: false });
    focusMainAction(Date.now() + 5000, true);
  };

  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Go to">
        <input
          ref={input}
          role="combobox"
          aria-label="Go to a view, resource, object, lesson or context"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={shown.length ? `${listId}-${current}` : undefined}
          aria-autocomplete="list"
          placeholder="a view, resource, lesson or context; “cm web” for an object"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || (e.key === 'n' && e.ctrlKey)) setActive((a) => Math.min(a + 1, shown.length - 1));
            else if (e.key === 'ArrowUp' || (e.key === 'p' && e.ctrlKey)) setActive((a) => Math.max(a - 1, 0));
            else if (e.key === 'Enter') choose(shown[current]);
            else if (e.key === 'Escape') {
              onClose();
              if (back.current instanceof HTMLElement) back.current.focus();
            }
            else return;
            e.preventDefault();
          }}
        />
        <ul id={listId} role="listbox" aria-label="Matches" className="palette-list">
          {shown.map((e, i) => (
            <li
              key={`${e.kind} ${e.label} ${e.detail}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === current}
              className={i === current ? 'palette-active' : undefined}
              onMouseMove={() => setActive(i)}
              onClick={() => choose(e)}
            >
              <span className="palette-kind">{kindWord(e.kind)}</span> <span className="palette-label">{e.label}</span>
              <span className="palette-detail small muted">{e.detail}</span>
            </li>
          ))}
          {shown.length === 0 && (
            <li role="presentation" className="small muted">
              {oq && names.isFetching ? `listing ${oq.resource.resource}…` : oq && names.error ? `could not list ${oq.resource.resource}: ${names.error.message}` : 'nothing matches'}
            </li>
          )}
        </ul>
        <p className="small muted palette-help">↑↓ to choose, Enter to go, Esc to close. “{'<resource> <name>'}” finds an object (in the namespace picked above, or all).</p>
      </div>
    </div>
  );
}
