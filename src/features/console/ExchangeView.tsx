// The exchange inspector: status line, warnings, timing and sizes, every response header (the
// ones the API server adds explained), and the body rendered for its media type. What is shown is
// computed by useExchangeBody.ts; this file holds the panels.
import { mediaParams, prettyJson, toYaml } from '../../codecs';
import { toKyaml } from '../../codecs/kyaml';
import { StatusView } from '../../ui/ErrorBox';
import { HexView } from '../../ui/HexView';
import { JsonTree } from '../../ui/JsonTree';
import { KubeTable } from '../../ui/KubeTable';
import { formatBytes } from '../../ui/format';
import { WarningList } from '../../ui/WarningList';
import { DecodedBody } from './DecodedBody';
import { decodeText, type Exchange, type HeaderList, headerValue } from '../../k8s/client';
import { SHOWN_EVENTS, useExchangeBody, type WatchEventView } from './useExchangeBody';

/** What the headers the API server (and our proxy) add mean. */
const HEADER_NOTES: Record<string, string> = {
  'audit-id': 'the ID of this request in the API server’s audit log; quote it when asking an administrator',
  'content-type': 'the media type the server chose from the Accept header',
  'content-encoding': 'the body was compressed on the wire (the server compresses large responses when the client accepts gzip); shown here decoded',
  'content-length': 'body size in bytes, as sent',
  'cache-control': 'API responses are not to be cached by shared caches',
  'x-kubernetes-pf-flowschema-uid': 'API Priority and Fairness: UID of the FlowSchema that classified this request',
  'x-kubernetes-pf-prioritylevel-uid': 'API Priority and Fairness: UID of the PriorityLevelConfiguration whose queues it went through',
  warning: 'a problem the server accepted anyway (deprecated API, unknown field, admission warning): see above',
  'server-timing': 'added by the explorer’s proxy: how long the API server took to answer (upstream)',
  'x-explorer-proxy-error': 'the explorer’s proxy made this response, not the API server',
  'retry-after': 'seconds to wait before retrying: 429 from API Priority and Fairness or from a watch cache still loading, 503, and 504 "Too large resource version" (a read at a version the server has not reached)',
  etag: 'version tag of the representation; send it back in If-None-Match to get 304 if unchanged',
  date: 'when the response was generated',
};

function ms(v: number | undefined): string {
  return v === undefined ? '?' : `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;
}

export function ExchangeView({ exchange, streaming, compact }: { exchange: Exchange; streaming?: boolean; compact?: boolean }) {
  const x = useExchangeBody(exchange);
  const { res, body, status, unavailable, fromProxy } = x;
  return (
    <div className="stack" aria-label="Exchange">
      <div className="row">
        <code>
          {exchange.request.method} {exchange.request.path}
        </code>
        {exchange.source === 'har' && <span className="badge">imported from HAR</span>}
      </div>
      {exchange.error && !res && (
        <p role="alert" className="error-box">
          {exchange.stopped ? 'Stopped before the response arrived.' : `Request failed: ${exchange.error}`}
        </p>
      )}
      {res && (
        <>
          <StatusLine exchange={exchange} streaming={streaming} bodyLength={body.length} encoding={x.encoding} fromProxy={fromProxy} />
          <WarningList warnings={x.warnings} />
          {status && <StatusView status={status} fromProxy={fromProxy} />}
          {unavailable && (
            <>
              {unavailable.gv && <p className="warning-list small">{unavailable.gv}.</p>}
              <StatusView status={unavailable.status} fromProxy={fromProxy} />
            </>
          )}
          {!compact && <RequestAsSent exchange={exchange} />}
          {!compact && <ResponseHeaders headers={res.headers} />}
          {x.tabs.length > 0 && <BodyViews exchange={exchange} x={x} />}
          {body.length === 0 && !streaming && <p className="muted small">Empty body.</p>}
        </>
      )}
    </div>
  );
}

function StatusLine({ exchange, streaming, bodyLength, encoding, fromProxy }: { exchange: Exchange; streaming?: boolean; bodyLength: number; encoding: string | undefined; fromProxy: boolean }) {
  const res = exchange.response!;
  return (
    <p className="row" aria-label="Status line">
      <strong className={res.status >= 400 ? 'warn' : undefined} style={{ fontSize: 16 }}>
        HTTP {res.status} {res.statusText}
      </strong>
      {fromProxy && <span className="badge warn">from the explorer’s proxy</span>}
      {streaming && <span className="badge ok">streaming…</span>}
      {exchange.stopped && <span className="badge">stopped</span>}
      <span className="muted small">
        total {ms(exchange.timings.totalMs)} · upstream {ms(exchange.timings.upstreamMs)} · {formatBytes(bodyLength)} decoded
        {exchange.wireSize !== undefined && ` · ${formatBytes(exchange.wireSize)} on the wire`}
        {encoding && ` (${encoding})`}
        {res.truncated && ' · body truncated'}
      </span>
    </p>
  );
}

function RequestAsSent({ exchange }: { exchange: Exchange }) {
  return (
    <details>
      <summary>
        Request as sent ({exchange.request.headers.length} {exchange.request.headers.length === 1 ? 'header' : 'headers'}
        {exchange.request.body ? ', with body' : ''})
      </summary>
      <pre aria-label="Request as sent">
        {`${exchange.request.method} ${exchange.request.path}\n`}
        {exchange.request.headers.map(([k, v]) => `${k}: ${v}\n`).join('')}
        {exchange.userAgent && !headerValue(exchange.request.headers, 'User-Agent') ? `User-Agent: ${exchange.userAgent}\n` : ''}
        {exchange.request.body ? `\n${exchange.request.body}` : ''}
      </pre>
    </details>
  );
}

function ResponseHeaders({ headers }: { headers: HeaderList }) {
  return (
    <details>
      <summary>Response headers ({headers.length})</summary>
      <table className="grid small" aria-label="Response headers">
        <tbody>
          {headers.map(([k, v], i) => (
            <tr key={i}>
              <th scope="row">
                <code>{k}</code>
              </th>
              <td>
                <code>{v}</code>
                {k.toLowerCase() === 'content-type' && Object.keys(mediaParams(v)).length > 0 && (
                  <span className="muted">
                    {' '}
                    — parameters:{' '}
                    {Object.entries(mediaParams(v))
                      .map(([a, b]) => `${a}=${b}`)
                      .join(', ')}
                  </span>
                )}
                {HEADER_NOTES[k.toLowerCase()] && <div className="muted">{HEADER_NOTES[k.toLowerCase()]}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        The proxy sends the explorer’s own User-Agent (not the browser’s: kube-apiserver pretty-prints JSON for a browser and names a write’s field manager after it) unless the request sets one, and adds the credentials of the context; the browser
        adds Accept-Encoding.
      </p>
    </details>
  );
}

function BodyViews({ exchange, x }: { exchange: Exchange; x: ReturnType<typeof useExchangeBody> }) {
  const { tabs, tab, setTab, kind, watch, table, parsed, body, isWatch, text, contentType } = x;
  return (
    <div>
      <div className="row" role="tablist" aria-label="Body views">
        {tabs.map((t) => (
          <button key={t} type="button" role="tab" aria-selected={t === tab} className={t === tab ? 'primary' : undefined} onClick={() => setTab(t)}>
            {{ table: 'Table', tree: 'Tree', text: kind === 'yaml' ? 'YAML' : 'Text', yaml: 'As YAML', kyaml: 'As KYAML', decoded: 'Decoded', hex: 'Hex', events: `Events (${watch?.events.length ?? 0})` }[t]}
          </button>
        ))}
      </div>
      <div className="panel scroll" role="tabpanel" aria-label="Response body" tabIndex={0}>
        {tab === 'events' && watch && <WatchEvents events={watch.events} total={watch.total} />}
        {tab === 'table' && table && <KubeTable table={table} label="Response table" />}
        {tab === 'tree' && parsed?.ok && <JsonTree value={parsed.value} openDepth={body.length > 200_000 ? 1 : 4} label="Response body tree" />}
        {tab === 'text' && <pre>{isWatch && kind === 'json' ? decodeText(body) : kind === 'json' && !exchange.watch ? prettyJson(text) : text}</pre>}
        {tab === 'yaml' && parsed?.ok && <pre>{toYaml(parsed.value)}</pre>}
        {tab === 'kyaml' && parsed?.ok && <pre aria-label="KYAML">{toKyaml(parsed.value)}</pre>}
        {tab === 'decoded' && <DecodedBody body={body} contentType={contentType} watch={Boolean(exchange.watch)} />}
        {tab === 'hex' && <HexView bytes={body} />}
      </div>
    </div>
  );
}

function WatchEvents({ events, total }: { events: WatchEventView[]; total: number }) {
  return (
    <ol className="small" aria-label="Watch events">
      {total > SHOWN_EVENTS && (
        <p className="muted small">
          Showing the newest {SHOWN_EVENTS} of {total} events.
        </p>
      )}
      {events.map((e, i) => (
        <li key={total - events.length + i}>
          <details>
            <summary>
              <strong>{e.type}</strong> {e.kind} {e.namespace ? `${e.namespace}/` : ''}
              {e.name} <span className="muted">rv {e.resourceVersion}</span>
            </summary>
            <pre>{prettyJson(e.raw)}</pre>
          </details>
        </li>
      ))}
      {events.length === 0 && <p className="muted">No events yet.</p>}
    </ol>
  );
}
