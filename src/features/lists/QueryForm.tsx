// The Lists view's query form (page size, selectors) and the title of a failed list.
import { useState } from 'react';
import { refusalSentence } from '../../k8s/discovery';
import { KubeApiError } from '../../k8s/client';
import { DEFAULT_LIMIT } from './listRequest';

export function QueryForm({ limit, labelSelector, fieldSelector, onApply }: { limit: number | undefined; labelSelector: string; fieldSelector: string; onApply: (q: { limit: string; labelSelector: string; fieldSelector: string }) => void }) {
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

export /** "List failed", or, for the 503 kube-apiserver answers for an aggregated API server that is down, which group version is down. */
function listFailedTitle(error: unknown, group: string | undefined, version: string | undefined): string {
  if (!(error instanceof KubeApiError) || error.code !== 503 || !version) return 'List failed';
  return `${refusalSentence(group ? `/apis/${group}/${version}` : `/api/${version}`, '', 503) ?? 'List failed'}.`;
}
