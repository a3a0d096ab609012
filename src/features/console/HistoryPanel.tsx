// The console's history: every exchange of this session, newest first, with HAR export and import,
// re-run, and the two to compare side by side.
import { useState } from 'react';
import { type Exchange, type ExchangeRequest, headerValue } from '../../k8s/client';
import { fromHar, toHar } from './har';
import { formatBytes } from '../../ui/format';
import { acceptLabel, history, HISTORY_MAX_BYTES, useHistoryDropped } from './history';
import { downloadText } from '../../lib/download';

export function HistoryPanel(props: {
  context: string;
  exchanges: Exchange[];
  servers: Record<string, string>;
  currentId: string | undefined;
  onSelect: (id: string) => void;
  compare: string[];
  onCompare: (ids: string[]) => void;
  onRerun: (request: ExchangeRequest) => void;
}) {
  const { context, exchanges, servers, currentId, onSelect, compare, onCompare, onRerun } = props;
  const [importError, setImportError] = useState<string | undefined>();
  const dropped = useHistoryDropped();
  return (
    <aside className="panel stack" aria-label="History">
      <div className="row">
        <h3 style={{ margin: 0, flex: 1 }}>History</h3>
        <button type="button" disabled={!exchanges.length} title="Secret values, tokens, passwords and private keys are replaced by REDACTED in the file, as in a recording" onClick={() => downloadText(`kube-api-explorer-${new Date().toISOString().replace(/[:.]/g, '-')}.har`, JSON.stringify(toHar([...exchanges].reverse(), servers), null, 2), 'application/json')}>
          Export HAR
        </button>
        <label className="small">
          <span className="muted">Import HAR </span>
          <input
            type="file"
            accept=".har,application/json"
            aria-label="Import HAR"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              try {
                const imported = fromHar(JSON.parse(await file.text()) as unknown, context);
                history.addMany([...imported].reverse());
                setImportError(undefined);
                if (imported[0]) onSelect(imported[imported.length - 1]!.id);
              } catch (err) {
                setImportError(err instanceof Error ? err.message : String(err));
              }
            }}
          />
        </label>
      </div>
      {importError && <p role="alert" className="error-box">{importError}</p>}
      {exchanges.length === 0 && <p className="muted small">Every exchange of this session appears here.</p>}
      {dropped.count > 0 && (
        <p className="muted small" aria-label="Exchanges not kept">
          {dropped.count} older exchange{dropped.count === 1 ? '' : 's'} ({formatBytes(dropped.bytes)}) not kept: the history keeps the newest {formatBytes(HISTORY_MAX_BYTES)}.
        </p>
      )}
      <ol aria-label="Exchanges" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {exchanges.map((x) => (
          <li key={x.id} className={x.id === currentId ? 'selected' : undefined} style={{ padding: 4, borderBottom: '1px solid var(--border)' }}>
            <div className="row small">
              <input type="checkbox" aria-label={`Compare ${x.request.method} ${x.request.path}`} checked={compare.includes(x.id)} onChange={(e) => onCompare(e.target.checked ? [...compare.filter((c) => c !== x.id), x.id].slice(-2) : compare.filter((c) => c !== x.id))} />
              <button type="button" className="listbtn history-entry" style={{ flex: 1, width: 'auto' }} onClick={() => onSelect(x.id)}>
                <strong>{x.response?.status ?? (x.error ? 'ERR' : '…')}</strong> {x.request.method} <code>{x.request.path}</code>
                {x.context !== context && <span className="badge">{x.context}</span>}
                {acceptLabel(headerValue(x.request.headers, 'Accept')) && (
                  <span className="badge" title={`Accept: ${headerValue(x.request.headers, 'Accept')}`}>
                    {acceptLabel(headerValue(x.request.headers, 'Accept'))}
                  </span>
                )}
              </button>
              <button type="button" className="ghost" aria-label={`Re-run ${x.request.method} ${x.request.path}`} title="Send this request again" onClick={() => onRerun(x.request)}>
                ↻
              </button>
            </div>
          </li>
        ))}
      </ol>
      {exchanges.length > 0 && (
        <button type="button" className="ghost small" onClick={() => history.clear()}>
          Clear history
        </button>
      )}
    </aside>
  );
}
