// After "Re-apply my changes to the latest version": the fields both the user and someone else
// changed, each with both values, and a choice per field. Nothing is sent while one is undecided
// (the merge never picks a side by itself).
import { toYaml } from '../../codecs/yaml';
import type { Json } from '../../k8s/patch';
import type { Rebase } from './state';

function shown(v: Json | undefined): string {
  if (v === undefined) return '(removed)';
  return toYaml(v).trimEnd();
}

export function RebaseConflicts({ rebase, onChoose }: { rebase: Rebase; onChoose: (path: string, side: 'mine' | 'theirs') => void }) {
  const rv = (rebase.latest.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
  if (rebase.conflicts.length === 0) {
    return (
      <p className="edit-wide small" role="status" aria-label="Rebase">
        Your changes were merged into resourceVersion <code>{rv}</code> by the schema's merge keys: their changes are kept, and no field was changed on both sides.
      </p>
    );
  }
  const undecided = rebase.conflicts.filter((c) => !rebase.choices[c.path]).length;
  return (
    <section className="edit-wide edit-banner stack" aria-label="Rebase conflicts">
      <p>
        <strong>
          {rebase.conflicts.length} field{rebase.conflicts.length === 1 ? '' : 's'} changed both by you and on the server
        </strong>{' '}
        (resourceVersion <code>{rv}</code>). Every other change of both sides is merged into the editor. Choose a value for each field; {undecided > 0 ? `${undecided} still to choose, nothing can be sent until then.` : 'all chosen.'}
      </p>
      <table className="small">
        <thead>
          <tr>
            <th>field</th>
            <th>yours</th>
            <th>the server's</th>
          </tr>
        </thead>
        <tbody>
          {rebase.conflicts.map((c) => (
            <tr key={c.path} aria-label={`Conflict ${c.path}`}>
              <td>
                <code>{c.path}</code>
              </td>
              <td>
                <label>
                  <input type="radio" name={`conflict ${c.path}`} checked={rebase.choices[c.path] === 'mine'} onChange={() => onChoose(c.path, 'mine')} aria-label={`Keep mine for ${c.path}`} />
                  <pre className="edit-wire">{shown(c.mine)}</pre>
                </label>
              </td>
              <td>
                <label>
                  <input type="radio" name={`conflict ${c.path}`} checked={rebase.choices[c.path] === 'theirs'} onChange={() => onChoose(c.path, 'theirs')} aria-label={`Keep theirs for ${c.path}`} />
                  <pre className="edit-wire">{shown(c.theirs)}</pre>
                </label>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
