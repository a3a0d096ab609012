// Scratch namespaces outlive the page (a reload keeps one in the URL; switching lessons or
// closing the tab does not delete it). They all carry the lesson label, so one list finds them.
import { useCallback, useEffect, useState } from 'react';
import { ErrorBox } from '../../ui/ErrorBox';
import { LESSON_LABEL, send } from './exchange';

interface Ns {
  name: string;
  phase?: string;
}

export function Leftovers({ context, current }: { context: string; current: string | undefined }) {
  const [items, setItems] = useState<Ns[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(async () => {
    try {
      const x = await send(context, 'GET', `/api/v1/namespaces?labelSelector=${encodeURIComponent(LESSON_LABEL)}`);
      if (x.status !== 200) throw new Error(`listing namespaces: HTTP ${x.status}`);
      const list = x.response as { items?: { metadata?: { name?: string }; status?: { phase?: string } }[] };
      setItems((list.items ?? []).map((n) => ({ name: n.metadata?.name ?? '', phase: n.status?.phase })));
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, [context]);

  // Reloaded when the lesson's own namespace comes or goes.
  useEffect(() => {
    void load();
  }, [load, current]);

  const remove = async (name: string) => {
    const x = await send(context, 'DELETE', `/api/v1/namespaces/${encodeURIComponent(name)}`);
    if (x.status >= 300 && x.status !== 404) setError(new Error(`deleting ${name}: HTTP ${x.status}`));
    await load();
  };

  return (
    <div className="lesson-leftovers small" role="region" aria-label="Lesson namespaces">
      <div className="row">
        <strong>Lesson namespaces here</strong>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {items && items.length === 0 && <p className="muted">none</p>}
      <ul>
        {items?.map((n) => (
          <li key={n.name}>
            <code>{n.name}</code> {n.phase === 'Terminating' ? <span className="muted">(terminating)</span> : n.name === current ? <span className="muted">(this lesson's)</span> : null}{' '}
            {n.phase !== 'Terminating' && (
              <button type="button" aria-label={`Delete ${n.name}`} onClick={() => void remove(n.name)}>
                delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {error != null && <ErrorBox error={error} />}
    </div>
  );
}
