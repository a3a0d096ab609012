// The panels of the request composer (RequestForm.tsx): each takes the draft and dispatches
// DraftActions; none holds state of the view.
import { useMemo, useState } from 'react';
import { ACCEPT_PRESETS, CONTENT_TYPE_PRESETS, yamlVersionDifferences } from '../../codecs';
import { hexDump } from '../../codecs/hex';
import { wireFormat, type WireFormatId } from '../../codecs/formats';
import type { AccessDecision, ResourceAttributes } from '../../k8s/access';
import type { ExchangeRequest } from '../../k8s/client';
import { CodeEditor } from '../../ui/CodeEditor';
import type { EncodedBody } from './binaryBody';
import { CapabilityNote, useRefusedLabel } from './CapabilityNote';
import { toCurl, toKubectl } from './copyAs';
import { toClientGo, toClientNode, toPython } from './copyAsCode';
import { type Draft, PARAM_SPECS } from './draft';
import { type DraftAction, draftHeader } from './draftReducer';

/** Said under every copied program. */
const CODE_NOTES = ["Prints the HTTP status, then the body. Headers the request did not set (Accept, User-Agent) are the library's own."];

type DraftProps = { draft: Draft; dispatch: (a: DraftAction) => void };

export function ParamsFieldset({ draft, dispatch }: DraftProps) {
  return (
    <fieldset className="stack" style={{ border: 'none', padding: 0, margin: 0 }}>
      <legend className="small muted">Query parameters</legend>
      {draft.params.map(([name, value], i) => {
        const spec = PARAM_SPECS.find((s) => s.name === name);
        const update = (nv: string, nn = name) => dispatch({ type: 'setParam', index: i, name: nn, value: nv });
        return (
          <div className="row" key={i}>
            {spec ? <code style={{ minWidth: 170 }}>{name}</code> : <input aria-label={`Parameter ${i + 1} name`} value={name} placeholder="name" onChange={(e) => update(value, e.target.value)} />}
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
            <button type="button" className="ghost" aria-label={`Remove parameter ${name}`} onClick={() => dispatch({ type: 'removeParam', index: i })}>
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
          onChange={(e) =>
            dispatch({
              type: 'addParam',
              name: e.target.value === '(custom)' ? '' : e.target.value,
            })
          }
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
  );
}

export function MediaHeaders({ context, draft, dispatch }: DraftProps & { context: string }) {
  const header = (name: string) => draftHeader(draft, name);
  // What this server refused when asked (k8s/capabilities), marked on the media type presets.
  const mediaRefused = useRefusedLabel(context);
  return (
    <>
      <div className="row">
        <label className="picker">
          <span>Accept</span>
          <select
            aria-label="Accept"
            value={ACCEPT_PRESETS.some((p) => p.value === header('Accept')) ? header('Accept') : header('Accept') ? '(custom)' : ''}
            onChange={(e) =>
              e.target.value !== '(custom)' &&
              dispatch({
                type: 'setHeader',
                name: 'Accept',
                value: e.target.value,
              })
            }
          >
            <option value="">(none)</option>
            {ACCEPT_PRESETS.map((p) => (
              <option key={p.value} value={p.value} title={p.note}>
                {p.label}
                {mediaRefused(p.value)}
              </option>
            ))}
            {header('Accept') && !ACCEPT_PRESETS.some((p) => p.value === header('Accept')) && <option value="(custom)">{header('Accept')}</option>}
          </select>
        </label>
        <label className="picker">
          <span>Content-Type</span>
          <select
            aria-label="Content-Type"
            value={header('Content-Type')}
            onChange={(e) =>
              dispatch({
                type: 'setHeader',
                name: 'Content-Type',
                value: e.target.value,
              })
            }
          >
            <option value="">(none)</option>
            {CONTENT_TYPE_PRESETS.map((p) => (
              <option key={p.value} value={p.value} title={p.note}>
                {p.label} ({p.value}){mediaRefused(p.value, 'Content-Type')}
              </option>
            ))}
            {header('Content-Type') && !CONTENT_TYPE_PRESETS.some((p) => p.value === header('Content-Type')) && <option value={header('Content-Type')}>{header('Content-Type')}</option>}
          </select>
        </label>
        <button type="button" className="ghost" onClick={() => dispatch({ type: 'addHeader' })}>
          Add header
        </button>
      </div>
      <CapabilityNote context={context} accept={header('Accept')} contentType={header('Content-Type')} />
    </>
  );
}

export function OtherHeaders({ draft, dispatch }: DraftProps) {
  const otherHeaders = draft.headers.map((h, i) => [h, i] as const).filter(([[k]]) => !['accept', 'content-type'].includes(k.toLowerCase()));
  return (
    <>
      {otherHeaders.map(([[k, v], i]) => (
        <div className="row" key={i}>
          <input
            aria-label={`Header ${i + 1} name`}
            value={k}
            placeholder="Header-Name"
            onChange={(e) =>
              dispatch({
                type: 'editHeader',
                index: i,
                name: e.target.value,
                value: v,
              })
            }
          />
          <input
            aria-label={`Header ${i + 1} value`}
            value={v}
            placeholder="value"
            style={{ flex: 1 }}
            onChange={(e) =>
              dispatch({
                type: 'editHeader',
                index: i,
                name: k,
                value: e.target.value,
              })
            }
          />
          <button type="button" className="ghost" aria-label={`Remove header ${k}`} onClick={() => dispatch({ type: 'removeHeader', index: i })}>
            ✕
          </button>
        </div>
      ))}
    </>
  );
}

export function BodyField({
  draft,
  dispatch,
  onSend,
  encoded,
  binaryType,
}: DraftProps & {
  onSend: () => void;
  encoded?: EncodedBody;
  binaryType?: WireFormatId;
}) {
  const bodyLanguage = draftHeader(draft, 'Content-Type').includes('yaml') ? 'yaml' : 'json';
  return (
    <div>
      <span className="small muted">Body</span>
      <CodeEditor ariaLabel="Request body" language={bodyLanguage} value={draft.body} onChange={(body) => dispatch({ type: 'body', body })} onSubmit={onSend} height="200px" />
      {/* The console sends the text as typed: a YAML Content-Type makes the server read it as YAML 1.1. */}
      {bodyLanguage === 'yaml' && <YamlReadings text={draft.body} />}
      {encoded?.kind === 'binary' && (
        <details className="small" aria-label="Encoded body">
          <summary>
            Sent as {encoded.format}: {encoded.bytes.length.toLocaleString('en-US')} bytes, encoded from the object above
            {encoded.format === 'CBOR' ? ' (self-described, tag 55799)' : ' (k8s\\0 magic, runtime.Unknown envelope)'}
          </summary>
          <pre className="small">{hexDump(encoded.bytes, 4096)}</pre>
        </details>
      )}
      {encoded?.kind === 'pending' && <p className="small muted">Loading the Kubernetes schemas to encode the body…</p>}
      {encoded?.kind === 'error' && (
        <p className="error-box small" role="alert" aria-label="Body encoding error">
          Not sent as {binaryType ? wireFormat(binaryType).label : ''}: {encoded.error}
        </p>
      )}
    </div>
  );
}

export function AccessNote({ context, attrs, access }: { context: string; attrs: ResourceAttributes; access: AccessDecision }) {
  return (
    <p className="warning-list" role="note" aria-label="Access check">
      <strong className="warn">
        Context {context} may not {attrs.verb}
      </strong>{' '}
      {attrs.resource}
      {attrs.subresource ? `/${attrs.subresource}` : ''}
      {attrs.namespace ? ` in namespace ${attrs.namespace}` : ''} (SelfSubjectAccessReview): the server will answer 403 Forbidden. {access.reason}
    </p>
  );
}

export function CopyAsRow({ request, context, server, kubeconfig }: { request: ExchangeRequest; context: string; server: string | undefined; kubeconfig?: string }) {
  const [copied, setCopied] = useState<{ label: string; text: string; notes: string[] } | undefined>();
  function copy(label: string, text: string, notes: string[]) {
    setCopied({ label, text, notes });
    navigator.clipboard?.writeText(text).catch(() => {
      /* The text is shown; copying by hand still works. */
    });
  }
  return (
    <>
      <div className="row small">
        <span className="muted">Exact request:</span>
        <code aria-label="Exact request">
          {request.method} {request.path}
        </code>
        <button
          type="button"
          className="ghost"
          onClick={() => copy('curl', toCurl(request, { server: server ?? 'https://API-SERVER' }), ['Add the credentials of the context (--cacert, --cert/--key or -H "Authorization: Bearer …"), or run kubectl proxy and use its URL.'])}
        >
          Copy as curl
        </button>
        <button
          type="button"
          className="ghost"
          onClick={() => {
            const k = toKubectl(request, { context, kubeconfig });
            copy('kubectl', k.command, k.notes);
          }}
        >
          Copy as kubectl
        </button>
        <button type="button" className="ghost" onClick={() => copy('client-go', toClientGo(request, { context, kubeconfig }), CODE_NOTES)}>
          Copy as client-go
        </button>
        <button type="button" className="ghost" onClick={() => copy('Python', toPython(request, { context, kubeconfig }), CODE_NOTES)}>
          Copy as Python
        </button>
        <button type="button" className="ghost" onClick={() => copy('client-node', toClientNode(request, { context, kubeconfig }), CODE_NOTES)}>
          Copy as client-node
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
    </>
  );
}

/** Plain scalars the server reads otherwise (YAML 1.1) than a YAML 1.2 reader, in a YAML body sent as typed. */
function YamlReadings({ text }: { text: string }) {
  const notes = useMemo(() => yamlVersionDifferences(text), [text]);
  if (notes.length === 0) return null;
  return (
    <ul className="small warning-list" aria-label="YAML 1.1 and 1.2 differences">
      {notes.map((d, i) => (
        <li key={i}>{d.message}</li>
      ))}
    </ul>
  );
}
