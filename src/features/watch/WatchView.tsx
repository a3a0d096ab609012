// Live watch panes: any number of watches side by side, each its own WatchSession, all carried
// over the one /proxy/mux WebSocket so that they hold none of the browser's six connections.
import { useMemo } from 'react';
import { navigate, type Route } from '../../routing';
import { AddPaneForm } from './AddPaneForm';
import { type PaneConfig, PANES_KEY, parsePanes, serializePanes } from './panes';
import { WatchPane } from './WatchPane';
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
              onChange={(next) =>
                setPanes(
                  panes.map((x) => (x.id === p.id ? next : x)),
                  true,
                )
              }
              onClose={() => setPanes(panes.filter((x) => x.id !== p.id))}
            />
          ))}
        </div>
      )}
    </section>
  );
}
