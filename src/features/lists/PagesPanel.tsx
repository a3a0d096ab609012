// What each chunk of the list came back with: its resourceVersion (the same on every page of one
// consistent list), remainingItemCount, the continue token and, as an implementation detail, what
// the kube-apiserver put inside that token.
import { memo } from 'react';
import type { PageInfo, PagerSnapshot } from '../../k8s/lists';
import { StatusView } from '../../ui/ErrorBox';
import { formatBytes } from './format';

function remainingNote(p: PageInfo, hasSelector: boolean): string {
  if (p.remainingItemCount !== undefined) return String(p.remainingItemCount);
  if (!p.continue) return 'absent (last page)';
  // The count comes from the storage's key range; with a selector the server would have to read
  // (and filter) everything after this chunk to know how many match, so it leaves the field out.
  if (hasSelector) return 'absent (a selector is set: the server cannot count the matches left)';
  return 'absent';
}

export function PagesPanel({
  snap,
  hasSelector,
  onNext,
  onAll,
  onStop,
  onRestart,
  onContinueInconsistently,
}: {
  snap: PagerSnapshot;
  hasSelector: boolean;
  onNext: () => void;
  onAll: () => void;
  onStop: () => void;
  onRestart: () => void;
  onContinueInconsistently: () => void;
}) {
  const rvs = new Set(snap.pages.filter((p) => !p.inconsistent).map((p) => p.resourceVersion));
  const more = !!snap.pages.at(-1)?.continue && !snap.expired;
  return (
    <section className="lists-pages" aria-label="Pages">
      <div className="lists-pagebar">
        <span role="status" aria-live="polite">
          {snap.rowCount.toLocaleString()} {snap.rowCount === 1 ? 'row' : 'rows'} in {snap.pages.length} {snap.pages.length === 1 ? 'page' : 'pages'}
          {snap.done ? ', list complete' : more ? ', more on the server' : ''}
          {snap.loading ? ' — loading…' : ''}
          {snap.throttled
            ? ` — the API server asked to slow down (429${snap.throttled.retryAfterSeconds !== undefined ? `, Retry-After: ${snap.throttled.retryAfterSeconds} s` : ''}): asking again at ${new Date(snap.throttled.until).toTimeString().slice(0, 8)}`
            : ''}
        </span>
        <button type="button" onClick={onNext} disabled={!more || snap.loading}>
          Next page
        </button>
        {snap.loadingAll ? (
          <button type="button" onClick={onStop}>
            Stop
          </button>
        ) : (
          <button type="button" onClick={onAll} disabled={!more}>
            Load all
          </button>
        )}
        <button type="button" onClick={onRestart}>
          Start again
        </button>
        {snap.pages.length > 0 && (
          <span className="muted small">
            response size {formatBytes(snap.totalBytes)} ({snap.totalBytes.toLocaleString('en-US')} bytes)
            {snap.rowCount > 0 && `, ${formatBytes(Math.round(snap.totalBytes / snap.rowCount))} per item`}
          </span>
        )}
        {snap.duplicates > 0 && <span className="badge warn">{snap.duplicates} rows seen twice</span>}
      </div>

      {snap.expired && (
        <section className="lists-expired" aria-label="Expired continue token">
          <StatusView status={snap.expired.error.status} />
          <p className="small">
            The continue token outlived the data it points into: etcd compacted the revision the list is pinned to. Either start the list again, or read the rest with the token this 410
            carries: that continues after the last key shown, at the current resourceVersion, so objects changed in between may be missing or show a newer state.
          </p>
          <div className="lists-pagebar">
            <button type="button" onClick={onRestart}>
              Start again
            </button>
            <button type="button" onClick={onContinueInconsistently} disabled={!snap.expired.token}>
              Continue inconsistently
            </button>
            {snap.expired.token && <code className="token" title={snap.expired.token}>{snap.expired.token}</code>}
          </div>
        </section>
      )}

      {snap.pages.length > 0 && (
        <details open={snap.pages.length <= 5 || undefined}>
          <summary>
            ListMeta per page{' '}
            {rvs.size === 1 ? <span className="muted small">— one resourceVersion for the consistent pages: {[...rvs][0]}</span> : null}
          </summary>
          <table className="lists-meta" aria-label="ListMeta per page">
            <thead>
              <tr>
                <th>Page</th>
                <th>Items</th>
                <th>resourceVersion</th>
                <th>remainingItemCount</th>
                <th>Size</th>
                <th>continue</th>
                <th title="Implementation detail of the kube-apiserver's etcd storage: clients must treat the token as opaque">Token holds (implementation detail)</th>
              </tr>
            </thead>
            <tbody>
              {snap.pages.map((p) => (
                <PageRow key={p.index} p={p} hasSelector={hasSelector} />
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}

// PageInfo objects never change once made, so a new chunk renders one new row, not all of them.
const PageRow = memo(function PageRow({ p, hasSelector }: { p: PageInfo; hasSelector: boolean }) {
  return (
    <tr className={p.inconsistent ? 'inconsistent' : undefined}>
      <td>
        {p.index}
        {p.inconsistent && <span className="badge warn">inconsistent</span>}
      </td>
      <td>{p.items}</td>
      <td>{p.resourceVersion}</td>
      <td>{remainingNote(p, hasSelector)}</td>
      <td>{formatBytes(p.bytes)}</td>
      <td>{p.continue ? <code className="token" title={p.continue}>{p.continue}</code> : <span className="muted">none</span>}</td>
      <td>
        {p.decoded ? (
          <code className="small">
            rv {p.decoded.rv}
            {p.decoded.rv === -1 ? ' (no snapshot: inconsistent)' : ''}, start key {JSON.stringify(p.decoded.start)}
          </code>
        ) : p.continue ? (
          <span className="muted small">not decodable (opaque)</span>
        ) : null}
      </td>
    </tr>
  );
});
