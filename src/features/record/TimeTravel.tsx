// Time travel for the object on screen: every version the explorer has seen of it during this
// tab's life (the journal: lists, watches, reads and writes, live), or in the recording being
// replayed; a diff between any two, and who changed each field.
import { useMemo, useState, useSyncExternalStore } from 'react';
import { activeReplay, fieldChanges, journal, subscribeReplay, versionsOf } from '../../k8s/record';
import { type ResourceRef, resourcePath } from '../../k8s/paths';

function useVersions(context: string, target: ResourceRef) {
  const replay = useSyncExternalStore(subscribeReplay, activeReplay);
  // The snapshot changes with every byte the journal keeps: the versions follow as it grows.
  const snap = useSyncExternalStore(
    (cb) => journal.subscribe(cb),
    () => journal.snapshot(),
  );
  return useMemo(() => {
    const exchanges = replay ? replay.recording.exchanges : journal.contents().exchanges;
    const versions = versionsOf(exchanges, {
      context,
      objectPath: resourcePath(target),
      collectionPaths: [resourcePath({ ...target, name: undefined }), resourcePath({ ...target, name: undefined, namespace: undefined })],
      namespace: target.namespace,
      name: target.name ?? '',
    });
    return { versions, from: replay ? ('recording' as const) : ('tab' as const) };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- snap stands for the journal's contents
  }, [replay, snap, context, target]);
}

const show = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

export function TimeTravel({ context, target }: { context: string; target: ResourceRef }) {
  const { versions, from } = useVersions(context, target);
  const [pick, setPick] = useState<{ a?: string; b?: string }>({});
  const b = versions.find((v) => v.resourceVersion === pick.b) ?? versions[versions.length - 1];
  const a = versions.find((v) => v.resourceVersion === pick.a) ?? versions[versions.length - 2];
  const changes = useMemo(() => (a && b ? fieldChanges(a.object, b.object) : []), [a, b]);

  return (
    <section className="panel time-travel" aria-label="Time travel">
      <h3>Versions seen</h3>
      {versions.length === 0 ? (
        <p className="muted small">{from === 'recording' ? 'No version of this object in the recording.' : 'No version of this object seen yet.'}</p>
      ) : (
        <>
          <p className="muted small">
            {versions.length} version{versions.length === 1 ? '' : 's'} {from === 'recording' ? 'in the recording' : 'seen in this tab (lists, watches, reads, writes)'}, ordered by resourceVersion. Pick two to compare.
            {from === 'tab' && ' Follow this object (below) to see each change as it is made.'}
          </p>
          <table className="tt-versions" aria-label="Versions">
            <thead>
              <tr>
                <th>from</th>
                <th>to</th>
                <th>resourceVersion</th>
                <th>seen</th>
                <th>in</th>
              </tr>
            </thead>
            <tbody>
              {versions.map((v) => (
                <tr key={v.resourceVersion}>
                  <td>
                    <input type="radio" name="tt-a" aria-label={`from ${v.resourceVersion}`} checked={a?.resourceVersion === v.resourceVersion} onChange={() => setPick((p) => ({ ...p, a: v.resourceVersion }))} />
                  </td>
                  <td>
                    <input type="radio" name="tt-b" aria-label={`to ${v.resourceVersion}`} checked={b?.resourceVersion === v.resourceVersion} onChange={() => setPick((p) => ({ ...p, b: v.resourceVersion }))} />
                  </td>
                  <td className="mono">{v.resourceVersion}</td>
                  <td>{new Date(v.at).toLocaleTimeString()}</td>
                  <td>{v.seenIn}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {a && b && (
            <>
              <h4>
                Changes from <span className="mono">{a.resourceVersion}</span> to <span className="mono">{b.resourceVersion}</span>
              </h4>
              {changes.length === 0 ? (
                <p className="muted small">No field changed.</p>
              ) : (
                <table className="tt-changes" aria-label="Field changes">
                  <thead>
                    <tr>
                      <th>field</th>
                      <th>before</th>
                      <th>after</th>
                      <th>changed by</th>
                    </tr>
                  </thead>
                  <tbody>
                    {changes.map((c) => (
                      <tr key={c.path} data-testid={`tt-change-${c.path}`}>
                        <td className="mono">{c.path}</td>
                        <td className="mono">{show(c.before)}</td>
                        <td className="mono">{show(c.after)}</td>
                        <td>
                          {c.by.length === 0
                            ? 'no manager owns it'
                            : c.by.map((m) => `${m.manager} (${m.operation}${m.subresource ? ` ${m.subresource}` : ''}${m.time ? `, ${m.time}` : ''})`).join('; ')}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
