// The request console: compose any request, send it through the proxy unchanged, and inspect the
// exact exchange. Watches stream (the body is read as it arrives) until stopped.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { navigate, type Route } from '../../app/route';
import { ACCEPT_PRESETS, CONTENT_TYPE_PRESETS, isWatchRequest } from '../../codecs';
import { reviewAccess } from '../../k8s/access';
import { allResources, discoveryQuery } from '../../k8s/discovery';
import { resourcePath } from '../../k8s/paths';
import { CodeEditor } from '../../ui/CodeEditor';
import { contextsQuery } from '../shell/queries';
import { CapabilityNote, useRefusedLabel } from './CapabilityNote';
import { compareExchanges } from './compare';
import { toCurl, toKubectl } from './copyAs';
import { type Draft, draftFromExtra, draftToExtra, draftToRequest, METHODS, PARAM_SPECS, requestToDraft } from './draft';
import { type Exchange, queryOf, runExchange } from './exchange';
import { ExchangeView } from './ExchangeView';
import { fromHar, toHar } from './har';
import { history, useHistory } from './history';
import { requestAttributes } from './verb';

function downloadText(filename: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function extraOf(route: Route): Record<string, string> {
  return route.extra;
}

/**
 * The draft as the URL can hold it: the route serializer drops empty values, so a parameter row
 * still waiting for its value is not in the URL. Comparing normalized forms keeps such a row from
 * being mistaken for an outside change of the URL.
 */
function normalized(extra: Record<string, string>): string {
  return JSON.stringify(draftToExtra(draftFromExtra(Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== '')))));
}

export function ConsoleView({ route, context }: { route: Route; context: string }) {
  const [draft, setDraftState] = useState<Draft>(() => draftFromExtra(extraOf(route)));
  const written = useRef<string>(normalized(draftToExtra(draft)));
  const exchanges = useHistory();
  const [currentId, setCurrentId] = useState<string | undefined>();
  const [streamingId, setStreamingId] = useState<string | undefined>();
  const [compare, setCompare] = useState<string[]>([]);
  const [copied, setCopied] = useState<{ label: string; text: string; notes: string[] } | undefined>();
  const [importError, setImportError] = useState<string | undefined>();
  const abort = useRef<AbortController | null>(null);
  const discovery = useQuery(discoveryQuery(context));
  const contexts = useQuery(contextsQuery());
  const servers = useMemo(() => Object.fromEntries((contexts.data?.contexts ?? []).map((c) => [c.name, c.server])), [contexts.data]);

  // The URL changed from outside (Back, a link from discovery): take its request.
  const routeExtra = normalized(extraOf(route));
  useEffect(() => {
    if (routeExtra !== written.current && ('p' in route.extra || 'm' in route.extra)) {
      written.current = routeExtra;
      setDraftState(draftFromExtra(route.extra));
    }
  }, [routeExtra, route.extra]);

  useEffect(() => () => abort.current?.abort(), []);

  const setDraft = (d: Draft) => {
    setDraftState(d);
    const extra = draftToExtra(d);
    written.current = normalized(extra);
    navigate({ extra }, { replace: true, keepExtra: false });
  };

  const request = draftToRequest(draft);
  // Asked before sending, so that a refusal is explained rather than a surprise 403.
  const attrs = requestAttributes(request.method, request.path);
  const access = useQuery({
    queryKey: ['k8s', context, 'access', 'console', attrs],
    queryFn: ({ signal }) => reviewAccess(context, attrs!, signal),
    enabled: !!attrs,
    staleTime: 30_000,
  });
  const current = exchanges.find((x) => x.id === currentId);
  const refused = useRefusedLabel(context);

  async function send(req = request) {
    abort.current?.abort();
    const ctrl = new AbortController();
    abort.current = ctrl;
    // A request still running when another is sent (a watch, say) is stopped; its late updates go
    // to the history only and do not take the inspector back.
    const latest = () => abort.current === ctrl;
    let id: string | undefined;
    const watching = isWatchRequest(req.path, queryOf(req.path));
    const x = await runExchange(context, req, {
      signal: ctrl.signal,
      onUpdate: (partial) => {
        history.put(partial);
        if (!id && latest()) {
          id = partial.id;
          setCurrentId(id);
          if (watching) setStreamingId(id);
        }
      },
    });
    history.put(x);
    if (latest()) {
      setCurrentId(x.id);
      setStreamingId(undefined);
      abort.current = null;
    }
  }

  function stop() {
    abort.current?.abort();
  }

  // Path completion: collection paths of every resource discovery lists, in the chosen namespace.
  const completions = useMemo(() => {
    const out = new Set<string>(['/api', '/apis', '/version', '/openapi/v3', '/healthz', '/livez', '/readyz', '/metrics']);
    for (const r of discovery.data ? allResources(discovery.data) : []) {
      out.add(resourcePath({ group: r.group, version: r.version, resource: r.resource }));
      if (r.namespaced && route.namespace) out.add(resourcePath({ group: r.group, version: r.version, resource: r.resource, namespace: route.namespace }));
    }
    return [...out];
  }, [discovery.data, route.namespace]);

  const header = (name: string) => draft.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? '';
  const setHeader = (name: string, value: string) => {
    const rest = draft.headers.filter(([k]) => k.toLowerCase() !== name.toLowerCase());
    setDraft({ ...draft, headers: value ? [...rest, [name, value]] : rest });
  };
  const otherHeaders = draft.headers.map((h, i) => [h, i] as const).filter(([[k]]) => !['accept', 'content-type'].includes(k.toLowerCase()));

  // Oldest first: the history lists newest first.
  const compared: Exchange[] = exchanges.filter((x) => compare.includes(x.id)).reverse();
  const bodyLanguage = header('Content-Type').includes('yaml') ? 'yaml' : 'json';

  return (
    <section className="stack" aria-label="Request console">
      <h2>Request console</h2>
      <form
        className="panel stack"
        aria-label="Request"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
        onKeyDown={(e) => {
          // Ctrl/Cmd+Enter sends from anywhere in the form, the body editor included.
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void send();
          }
        }}
      >
        <div className="row">
          <select aria-label="Method" value={draft.method} onChange={(e) => setDraft({ ...draft, method: e.target.value })}>
            {METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
          <input
            aria-label="Path"
            list="console-paths"
            value={draft.path}
            spellCheck={false}
            style={{ flex: 1, minWidth: 240, fontFamily: 'var(--mono)' }}
            onChange={(e) => {
              const v = e.target.value;
              const qi = v.indexOf('?');
              // Pasting a path with a query string fills the parameter rows.
              if (qi >= 0) setDraft({ ...draft, path: v.slice(0, qi), params: [...draft.params, ...new URLSearchParams(v.slice(qi + 1))] });
              else setDraft({ ...draft, path: v });
            }}
          />
          <datalist id="console-paths">
            {completions.map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
          <button type="submit" className="primary" title="Ctrl+Enter">
            Send
          </button>
          {streamingId && (
            <button type="button" className="danger" onClick={stop}>
              Stop
            </button>
          )}
        </div>

        <fieldset className="stack" style={{ border: 'none', padding: 0, margin: 0 }}>
          <legend className="small muted">Query parameters</legend>
          {draft.params.map(([name, value], i) => {
            const spec = PARAM_SPECS.find((s) => s.name === name);
            const update = (nv: string, nn = name) => setDraft({ ...draft, params: draft.params.map((p, j) => (j === i ? [nn, nv] : p)) });
            return (
              <div className="row" key={i}>
                {spec ? (
                  <code style={{ minWidth: 170 }}>{name}</code>
                ) : (
                  <input aria-label={`Parameter ${i + 1} name`} value={name} placeholder="name" onChange={(e) => update(value, e.target.value)} />
                )}
                {spec?.kind === 'enum' || spec?.kind === 'bool' ? (
                  <select aria-label={name} value={value} onChange={(e) => update(e.target.value)}>
                    <option value="">(choose)</option>
                    {(spec.kind === 'bool' ? ['true', 'false'] : spec.values!).map((v) => (
                      <option key={v}>{v}</option>
                    ))}
                  </select>
                ) : (
                  <input aria-label={name || `Parameter ${i + 1} value`} type={spec?.kind === 'number' ? 'number' : 'text'} value={value} placeholder="value" onChange={(e) => update(e.target.value)} />
                )}
                <button type="button" className="ghost" aria-label={`Remove parameter ${name}`} onClick={() => setDraft({ ...draft, params: draft.params.filter((_, j) => j !== i) })}>
                  ✕
                </button>
                {spec && <span className="muted small">{spec.help}</span>}
              </div>
            );
          })}
          <div className="row">
            <select
              aria-label="Add query parameter"
              value=""
              onChange={(e) => {
                const name = e.target.value === '(custom)' ? '' : e.target.value;
                const spec = PARAM_SPECS.find((s) => s.name === name);
                const initial = spec?.kind === 'bool' ? 'true' : spec?.kind === 'enum' ? (spec.values![0] ?? '') : '';
                setDraft({ ...draft, params: [...draft.params, [name, initial]] });
              }}
            >
              <option value="">Add query parameter…</option>
              {PARAM_SPECS.filter((s) => !draft.params.some(([n]) => n === s.name)).map((s) => (
                <option key={s.name} value={s.name}>
                  {s.name}
                </option>
              ))}
              <option value="(custom)">(custom)</option>
            </select>
          </div>
        </fieldset>

        <div className="row">
          <label className="picker">
            <span>Accept</span>
            <select aria-label="Accept" value={ACCEPT_PRESETS.some((p) => p.value === header('Accept')) ? header('Accept') : header('Accept') ? '(custom)' : ''} onChange={(e) => e.target.value !== '(custom)' && setHeader('Accept', e.target.value)}>
              <option value="">(none)</option>
              {ACCEPT_PRESETS.map((p) => (
                <option key={p.value} value={p.value} title={p.note}>
                  {p.label}
                  {refused(p.value)}
                </option>
              ))}
              {header('Accept') && !ACCEPT_PRESETS.some((p) => p.value === header('Accept')) && <option value="(custom)">{header('Accept')}</option>}
            </select>
          </label>
          <label className="picker">
            <span>Content-Type</span>
            <select aria-label="Content-Type" value={header('Content-Type')} onChange={(e) => setHeader('Content-Type', e.target.value)}>
              <option value="">(none)</option>
              {CONTENT_TYPE_PRESETS.map((p) => (
                <option key={p.value} value={p.value} title={p.note}>
                  {p.label} ({p.value}){refused(p.value, 'Content-Type')}
                </option>
              ))}
              {header('Content-Type') && !CONTENT_TYPE_PRESETS.some((p) => p.value === header('Content-Type')) && <option value={header('Content-Type')}>{header('Content-Type')}</option>}
            </select>
          </label>
          <button type="button" className="ghost" onClick={() => setDraft({ ...draft, headers: [...draft.headers, ['', '']] })}>
            Add header
          </button>
        </div>
        <CapabilityNote context={context} accept={header('Accept')} contentType={header('Content-Type')} />
        {otherHeaders.map(([[k, v], i]) => (
          <div className="row" key={i}>
            <input aria-label={`Header ${i + 1} name`} value={k} placeholder="Header-Name" onChange={(e) => setDraft({ ...draft, headers: draft.headers.map((h, j) => (j === i ? [e.target.value, v] : h)) })} />
            <input aria-label={`Header ${i + 1} value`} value={v} placeholder="value" style={{ flex: 1 }} onChange={(e) => setDraft({ ...draft, headers: draft.headers.map((h, j) => (j === i ? [k, e.target.value] : h)) })} />
            <button type="button" className="ghost" aria-label={`Remove header ${k}`} onClick={() => setDraft({ ...draft, headers: draft.headers.filter((_, j) => j !== i) })}>
              ✕
            </button>
          </div>
        ))}
        {draft.method !== 'GET' && draft.method !== 'HEAD' && (
          <div>
            <span className="small muted">Body</span>
            <CodeEditor ariaLabel="Request body" language={bodyLanguage} value={draft.body} onChange={(body) => setDraft({ ...draft, body })} onSubmit={() => void send()} height="200px" />
          </div>
        )}
        {attrs && access.data && !access.data.allowed && (
          <p className="warning-list" role="note" aria-label="Access check">
            <strong className="warn">Context {context} may not {attrs.verb}</strong> {attrs.resource}
            {attrs.subresource ? `/${attrs.subresource}` : ''}
            {attrs.namespace ? ` in namespace ${attrs.namespace}` : ''} (SelfSubjectAccessReview): the server will answer 403 Forbidden. {access.data.reason}
          </p>
        )}
        <div className="row small">
          <span className="muted">Exact request:</span>
          <code aria-label="Exact request">
            {request.method} {request.path}
          </code>
          <button type="button" className="ghost" onClick={() => copy('curl', toCurl(request, { server: servers[context] ?? 'https://API-SERVER' }), ['Add the credentials of the context (--cacert, --cert/--key or -H "Authorization: Bearer …"), or run kubectl proxy and use its URL.'])}>
            Copy as curl
          </button>
          <button
            type="button"
            className="ghost"
            onClick={() => {
              const k = toKubectl(request, { context });
              copy('kubectl', k.command, k.notes);
            }}
          >
            Copy as kubectl
          </button>
        </div>
        {copied && (
          <section className="panel" aria-label={`Copied as ${copied.label}`}>
            <pre>{copied.text}</pre>
            {copied.notes.map((n) => (
              <p key={n} className="muted small">
                {n}
              </p>
            ))}
          </section>
        )}
      </form>

      <div className="split" style={{ gridTemplateColumns: 'minmax(0, 1fr) minmax(260px, 340px)' }}>
        <section className="panel" aria-label="Response">
          {current ? <ExchangeView exchange={current} streaming={current.id === streamingId} /> : <p className="muted">Send a request to see the exchange.</p>}
        </section>
        <aside className="panel stack" aria-label="History">
          <div className="row">
            <h3 style={{ margin: 0, flex: 1 }}>History</h3>
            <button type="button" disabled={!exchanges.length} onClick={() => downloadText(`kube-api-explorer-${new Date().toISOString().replace(/[:.]/g, '-')}.har`, JSON.stringify(toHar([...exchanges].reverse(), servers), null, 2), 'application/json')}>
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
                    if (imported[0]) setCurrentId(imported[imported.length - 1]!.id);
                  } catch (err) {
                    setImportError(err instanceof Error ? err.message : String(err));
                  }
                }}
              />
            </label>
          </div>
          {importError && <p role="alert" className="error-box">{importError}</p>}
          {exchanges.length === 0 && <p className="muted small">Every exchange of this session appears here.</p>}
          <ol aria-label="Exchanges" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {exchanges.map((x) => (
              <li key={x.id} className={x.id === currentId ? 'selected' : undefined} style={{ padding: 4, borderBottom: '1px solid var(--border)' }}>
                <div className="row small">
                  <input type="checkbox" aria-label={`Compare ${x.request.method} ${x.request.path}`} checked={compare.includes(x.id)} onChange={(e) => setCompare(e.target.checked ? [...compare.filter((c) => c !== x.id), x.id].slice(-2) : compare.filter((c) => c !== x.id))} />
                  <button type="button" className="listbtn" style={{ flex: 1, width: 'auto' }} onClick={() => setCurrentId(x.id)}>
                    <strong>{x.response?.status ?? (x.error ? 'ERR' : '…')}</strong> {x.request.method} <code>{x.request.path}</code>
                    {x.context !== context && <span className="badge">{x.context}</span>}
                  </button>
                  <button
                    type="button"
                    className="ghost"
                    aria-label={`Re-run ${x.request.method} ${x.request.path}`}
                    title="Send this request again"
                    onClick={() => {
                      setDraft(requestToDraft(x.request));
                      void send(x.request);
                    }}
                  >
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
      </div>

      {compared.length === 2 && (
        <section aria-label="Comparison">
          <h3>Side by side</h3>
          <table className="grid small" aria-label="Differences">
            <thead>
              <tr>
                <th>differs</th>
                <th>older</th>
                <th>newer</th>
              </tr>
            </thead>
            <tbody>
              {compareExchanges(compared[0]!, compared[1]!).map((d) => (
                <tr key={d.what}>
                  <th scope="row">
                    <code>{d.what}</code>
                  </th>
                  <td>
                    <code>{d.left}</code>
                  </td>
                  <td>
                    <code>{d.right}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="split-even">
            {compared.map((x) => (
              <div key={x.id} className="panel">
                <ExchangeView exchange={x} compact />
              </div>
            ))}
          </div>
        </section>
      )}
    </section>
  );

  function copy(label: string, text: string, notes: string[]) {
    setCopied({ label, text, notes });
    navigator.clipboard?.writeText(text).catch(() => {
      /* The text is shown; copying by hand still works. */
    });
  }
}
