// The exchange inspector: status line, warnings, timing and sizes, every response header (the
// ones the API server adds explained), and the body rendered for its media type.
import { useMemo, useRef, useState } from 'react';
import { bodyKind, mediaParams, parseJson, parseWarningHeader, parseYaml, prettyJson, toYaml } from '../../codecs';
import { NdjsonFramer } from '../../codecs/ndjson';
import { toKyaml } from '../../codecs/kyaml';
import { isBinaryFormat } from '../../codecs/formats';
import { isStatus, type Status, statusOf } from '../../k8s/client';
import { refusalSentence } from '../../k8s/discovery';
import { Ring } from '../../k8s/watch';
import { StatusView } from '../../ui/ErrorBox';
import { HexView } from '../../ui/HexView';
import { JsonTree } from '../../ui/JsonTree';
import { isKubeTable, KubeTable } from '../../ui/KubeTable';
import { formatBytes } from '../../ui/format';
import { WarningList } from '../../ui/WarningList';
import { DecodedBody } from './DecodedBody';
import { decodeText, type Exchange, headerValue } from '../../k8s/client';

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

type BodyTab = 'table' | 'tree' | 'text' | 'yaml' | 'kyaml' | 'decoded' | 'hex' | 'events';

interface WatchEventView {
  type: string;
  kind?: string;
  name?: string;
  namespace?: string;
  resourceVersion?: string;
  raw: string;
}

/**
 * Watch events parsed incrementally: each render decodes only the bytes that arrived since the
 * last one (the body of a running watch only grows), so a long watch costs O(new bytes) per chunk,
 * and the parsed events kept are a ring of the newest SHOWN_EVENTS (Text and Hex keep every byte).
 */
class WatchParser {
  private seen = 0;
  // The one line splitter for JSON watch streams (codecs/ndjson.ts), fed only the new bytes.
  private readonly framer = new NdjsonFramer();
  private readonly ring = new Ring<WatchEventView>(SHOWN_EVENTS);
  /** Events parsed in all (kept or not). */
  total = 0;
  events: WatchEventView[] = [];
  constructor(readonly id: string) {}
  feed(body: Uint8Array): WatchEventView[] {
    if (body.length < this.seen) return this.events;
    if (body.length === this.seen) return this.events;
    const frames = this.framer.push(body.subarray(this.seen));
    this.seen = body.length;
    const added: WatchEventView[] = [];
    for (const { text: line } of frames) {
      if (!line.trim()) continue;
      const p = parseJson(line);
      const ev = p.ok ? (p.value as { type?: string; object?: { kind?: string; metadata?: { name?: string; namespace?: string; resourceVersion?: string } } }) : undefined;
      added.push({
        type: ev?.type ?? '(unparsed)',
        kind: ev?.object?.kind,
        name: ev?.object?.metadata?.name,
        namespace: ev?.object?.metadata?.namespace,
        resourceVersion: ev?.object?.metadata?.resourceVersion,
        raw: line,
      });
    }
    if (added.length) {
      for (const e of added) this.ring.push(e);
      this.total += added.length;
      this.events = this.ring.toArray();
    }
    return this.events;
  }
}

/** At most this many events are rendered (the newest); the Text and Hex views keep everything. */
const SHOWN_EVENTS = 500;

export function ExchangeView({ exchange, streaming, compact }: { exchange: Exchange; streaming?: boolean; compact?: boolean }) {
  const res = exchange.response;
  const body = useMemo(() => res?.body ?? new Uint8Array(), [res?.body]);
  const contentType = res ? headerValue(res.headers, 'Content-Type') : undefined;
  const kind = bodyKind(contentType, body.length);
  const isWatch = exchange.watch && res?.status === 200;
  // A running watch's body is not decoded whole on every chunk; only the parser below reads it.
  const text = useMemo(() => ((kind === 'json' || kind === 'yaml' || kind === 'text') && !(isWatch && kind === 'json') ? decodeText(body) : ''), [body, kind, isWatch]);
  const parsed = useMemo(() => (kind === 'json' && !exchange.watch ? parseJson(text) : kind === 'yaml' ? parseYaml(text) : undefined), [kind, text, exchange.watch]);
  const status: Status | undefined = parsed?.ok && isStatus(parsed.value) && parsed.value.status !== 'Success' ? parsed.value : undefined;
  // kube-apiserver answers for an aggregated API server that is down with a plain-text 503 (no
  // Status): read as one, so that it is explained, and the group version that is down named.
  const unavailable = !status && res?.status === 503 && kind === 'text' ? { status: statusOf(503, text), gv: refusalSentence(exchange.request.path, '', 503) } : undefined;
  const warnings = parseWarningHeader(res ? headerValue(res.headers, 'Warning') : undefined);
  const parser = useRef<WatchParser | null>(null);
  if (isWatch && kind === 'json' && parser.current?.id !== exchange.id) parser.current = new WatchParser(exchange.id);
  const watch = isWatch && kind === 'json' ? { events: parser.current!.feed(body), total: parser.current!.total } : undefined;

  const tabs: BodyTab[] = [];
  if (watch) tabs.push('events');
  // The server answers a Table request with plain `application/json`; the body's kind tells.
  const table = parsed?.ok && isKubeTable(parsed.value) ? parsed.value : undefined;
  if (table) tabs.push('table');
  if (kind === 'json' && parsed?.ok) tabs.push('tree');
  if (kind === 'json' || kind === 'yaml' || kind === 'text') tabs.push('text');
  if (kind === 'json' && parsed?.ok) tabs.push('yaml', 'kyaml');
  // Binary bodies get a decoded view next to Hex; a failed 4xx/5xx of these types still tries it
  // and shows why it could not decode, rather than hiding the tab.
  if (isBinaryFormat(kind) && body.length) tabs.push('decoded');
  if (body.length) tabs.push('hex');
  const [chosen, setTab] = useState<BodyTab | undefined>();
  const tab = chosen && tabs.includes(chosen) ? chosen : tabs[0];
  const fromProxy = res ? headerValue(res.headers, 'X-Explorer-Proxy-Error') !== undefined : false;
  const encoding = res ? headerValue(res.headers, 'Content-Encoding') : undefined;

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
          <p className="row" aria-label="Status line">
            <strong className={res.status >= 400 ? 'warn' : undefined} style={{ fontSize: 16 }}>
              HTTP {res.status} {res.statusText}
            </strong>
            {fromProxy && <span className="badge warn">from the explorer’s proxy</span>}
            {streaming && <span className="badge ok">streaming…</span>}
            {exchange.stopped && <span className="badge">stopped</span>}
            <span className="muted small">
              total {ms(exchange.timings.totalMs)} · upstream {ms(exchange.timings.upstreamMs)} · {formatBytes(body.length)} decoded
              {exchange.wireSize !== undefined && ` · ${formatBytes(exchange.wireSize)} on the wire`}
              {encoding && ` (${encoding})`}
              {res.truncated && ' · body truncated'}
            </span>
          </p>
          <WarningList warnings={warnings} />
          {status && <StatusView status={status} fromProxy={fromProxy} />}
          {unavailable && (
            <>
              {unavailable.gv && <p className="warning-list small">{unavailable.gv}.</p>}
              <StatusView status={unavailable.status} fromProxy={fromProxy} />
            </>
          )}
          {!compact && (
            <details>
              <summary>Request as sent ({exchange.request.headers.length} {exchange.request.headers.length === 1 ? 'header' : 'headers'}{exchange.request.body ? ', with body' : ''})</summary>
              <pre aria-label="Request as sent">
                {`${exchange.request.method} ${exchange.request.path}\n`}
                {exchange.request.headers.map(([k, v]) => `${k}: ${v}\n`).join('')}
                {exchange.userAgent && !headerValue(exchange.request.headers, 'User-Agent') ? `User-Agent: ${exchange.userAgent}\n` : ''}
                {exchange.request.body ? `\n${exchange.request.body}` : ''}
              </pre>
            </details>
          )}
          {!compact && (
            <details>
              <summary>Response headers ({res.headers.length})</summary>
              <table className="grid small" aria-label="Response headers">
                <tbody>
                  {res.headers.map(([k, v], i) => (
                    <tr key={i}>
                      <th scope="row">
                        <code>{k}</code>
                      </th>
                      <td>
                        <code>{v}</code>
                        {k.toLowerCase() === 'content-type' && Object.keys(mediaParams(v)).length > 0 && (
                          <span className="muted"> — parameters: {Object.entries(mediaParams(v)).map(([a, b]) => `${a}=${b}`).join(', ')}</span>
                        )}
                        {HEADER_NOTES[k.toLowerCase()] && <div className="muted">{HEADER_NOTES[k.toLowerCase()]}</div>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="muted small">The proxy sends the explorer’s own User-Agent (not the browser’s: kube-apiserver pretty-prints JSON for a browser and names a write’s field manager after it) unless the request sets one, and adds the credentials of the context; the browser adds Accept-Encoding.</p>
            </details>
          )}
          {tabs.length > 0 && (
            <div>
              <div className="row" role="tablist" aria-label="Body views">
                {tabs.map((t) => (
                  <button key={t} type="button" role="tab" aria-selected={t === tab} className={t === tab ? 'primary' : undefined} onClick={() => setTab(t)}>
                    {{ table: 'Table', tree: 'Tree', text: kind === 'yaml' ? 'YAML' : 'Text', yaml: 'As YAML', kyaml: 'As KYAML', decoded: 'Decoded', hex: 'Hex', events: `Events (${watch?.events.length ?? 0})` }[t]}
                  </button>
                ))}
              </div>
              <div className="panel scroll" role="tabpanel" aria-label="Response body" tabIndex={0}>
                {tab === 'events' && watch && (
                  <ol className="small" aria-label="Watch events">
                    {watch.total > SHOWN_EVENTS && <p className="muted small">Showing the newest {SHOWN_EVENTS} of {watch.total} events.</p>}
                    {watch.events.map((e, i) => (
                      <li key={watch.total - watch.events.length + i}>
                        <details>
                          <summary>
                            <strong>{e.type}</strong> {e.kind} {e.namespace ? `${e.namespace}/` : ''}
                            {e.name} <span className="muted">rv {e.resourceVersion}</span>
                          </summary>
                          <pre>{prettyJson(e.raw)}</pre>
                        </details>
                      </li>
                    ))}
                    {watch.events.length === 0 && <p className="muted">No events yet.</p>}
                  </ol>
                )}
                {tab === 'table' && table && <KubeTable table={table} label="Response table" />}
                {tab === 'tree' && parsed?.ok && <JsonTree value={parsed.value} openDepth={body.length > 200_000 ? 1 : 4} label="Response body tree" />}
                {tab === 'text' && <pre>{isWatch && kind === 'json' ? decodeText(body) : kind === 'json' && !exchange.watch ? prettyJson(text) : text}</pre>}
                {tab === 'yaml' && parsed?.ok && <pre>{toYaml(parsed.value)}</pre>}
                {tab === 'kyaml' && parsed?.ok && <pre aria-label="KYAML">{toKyaml(parsed.value)}</pre>}
                {tab === 'decoded' && <DecodedBody body={body} contentType={contentType} watch={Boolean(exchange.watch)} />}
                {tab === 'hex' && <HexView bytes={body} />}
              </div>
            </div>
          )}
          {body.length === 0 && !streaming && <p className="muted small">Empty body.</p>}
        </>
      )}
    </div>
  );
}
