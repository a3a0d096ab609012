// The encodings view: one object or list fetched in every format the server offers for it (JSON,
// YAML, Protobuf, CBOR), each with its bytes on the wire, gzipped size, decode time in this
// browser and whether it decodes to the same object as the JSON (differences pointed out); then
// the hex of a binary form with the envelope, frames and fields highlighted, so that one can see
// where the bytes of `metadata.name` are. All reads are GETs at one resourceVersion (retried when
// the object moves between them).
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { navigate, type Route } from '../../routing';
import { toKyaml } from '../../codecs/kyaml';
import { refuseDeepNesting } from '../../codecs/nesting';
import { loadedK8sSchema, loadK8sSchema } from '../../codecs/protobuf';
import { FORMAT_CODECS } from '../../codecs/formatCodecs';
import { WIRE_FORMATS, wireFormat, type WireFormatId } from '../../codecs/formats';
import { type ByteSpan, innermost } from '../../codecs/spans';
import { kubeFetch } from '../../k8s/client';
import { discoveryQuery, findResource, refusalSentence } from '../../k8s/discovery';
import { resourcePath } from '../../k8s/paths';
import { differences, resourceVersionOf } from './compare';
import './encodings.css';

// The wire formats' registry says which formats the view asks for (JSON first: the reference).
const FORMATS = WIRE_FORMATS.filter((f) => f.encodings);

interface Row {
  format: WireFormatId;
  label: string;
  accept: string;
  status: number;
  contentType: string;
  bytes: Uint8Array;
  gzipped?: number;
  decodeMs?: number;
  value?: unknown;
  error?: string;
  diffs?: string[];
}

async function gzipSize(bytes: Uint8Array): Promise<number | undefined> {
  if (typeof CompressionStream === 'undefined') return undefined;
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('gzip'));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

async function fetchAll(context: string, path: string): Promise<{ rows: Row[]; note?: string }> {
  const schema = await loadK8sSchema();
  let note: string | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const rows: Row[] = [];
    for (const f of FORMATS) {
      const res = await kubeFetch({ context, path, headers: { Accept: f.mediaType } });
      rows.push({ format: f.id, label: f.label, accept: f.mediaType, status: res.status, contentType: res.headers.get('content-type') ?? '', bytes: new Uint8Array(await res.arrayBuffer()) });
      // Every row is decoded, compared and rendered by walking the object: refused past the depth
      // that is safe, as soon as the JSON (the first format) is in, before the other formats are
      // read: the server's YAML indents every level, so an object 10,000 levels deep is 300 MB of it.
      if (rows.length === 1 && rows[0]!.status === 200) refuseDeepNesting(new TextDecoder().decode(rows[0]!.bytes));
    }
    for (const r of rows) {
      r.gzipped = await gzipSize(r.bytes);
      if (r.status !== 200) {
        // Said in words: which group version refused which format (an aggregated API server may serve JSON and YAML only).
        r.error = refusalSentence(path, r.label, r.status) ?? `HTTP ${r.status}`;
        continue;
      }
      const t0 = performance.now();
      const d = FORMAT_CODECS[r.format].decode(r.bytes, schema);
      if ('value' in d) r.value = d.value;
      else r.error = d.error;
      r.decodeMs = performance.now() - t0;
    }
    const json = rows[0]!.value;
    const rvs = new Set(rows.filter((r) => r.value !== undefined).map((r) => resourceVersionOf(r.value)));
    // The object changed between the reads: read all formats again.
    if (rvs.size > 1 && attempt < 2) continue;
    note = rvs.size > 1 ? 'The object kept changing between the reads: differences may be real changes.' : undefined;
    for (const r of rows.slice(1)) if (r.value !== undefined && json !== undefined) r.diffs = differences(json, r.value);
    return { rows, note };
  }
  throw new Error('unreachable');
}

function HighlightedHex({ bytes, spans, selected }: { bytes: Uint8Array; spans: ByteSpan[]; selected?: ByteSpan }) {
  const limit = Math.min(bytes.length, 8192);
  const lines: React.ReactNode[] = [];
  for (let o = 0; o < limit; o += 16) {
    const cells: React.ReactNode[] = [];
    for (let i = o; i < Math.min(o + 16, limit); i++) {
      const s = innermost(spans, i);
      const on = selected && i >= selected.start && i < selected.end;
      cells.push(
        <span key={i} className={on ? 'hex-on' : s?.kind === 'framing' ? 'hex-framing' : undefined} title={s ? `${i}: ${s.label}` : String(i)}>
          {bytes[i]!.toString(16).padStart(2, '0')}
        </span>,
        i % 16 === 7 ? '  ' : ' ',
      );
    }
    lines.push(
      <div key={o}>
        <span className="muted">{o.toString(16).padStart(8, '0')}</span> {cells}
      </div>,
    );
  }
  return (
    <div>
      <pre className="hex" aria-label="Highlighted hex">
        {lines}
      </pre>
      {bytes.length > limit && <p className="muted small">First {limit} of {bytes.length} bytes shown.</p>}
    </div>
  );
}

function HexExplorer({ rows }: { rows: Row[] }) {
  const binary = rows.filter((r) => wireFormat(r.format).binary && r.status === 200);
  const [which, setWhich] = useState(binary[0]?.label ?? '');
  const row = binary.find((r) => r.label === which) ?? binary[0];
  const [schema, setSchema] = useState(loadedK8sSchema);
  useEffect(() => {
    if (!schema) void loadK8sSchema().then(setSchema);
  }, [schema]);
  const spans = useMemo(() => (!row ? [] : (FORMAT_CODECS[row.format].spans?.(row.bytes, schema) ?? [])), [row, schema]);
  const labels = useMemo(() => [...new Set(spans.map((s) => s.label))], [spans]);
  const [field, setField] = useState('metadata.name');
  if (!row) return null;
  const selected = spans.find((s) => s.label === field);
  return (
    <section className="panel stack" aria-label="Bytes">
      <h3>Where the bytes are</h3>
      <div className="row">
        <label className="picker">
          <span>Format</span>
          <select aria-label="Hex format" value={row.label} onChange={(e) => setWhich(e.target.value)}>
            {binary.map((r) => (
              <option key={r.label}>{r.label}</option>
            ))}
          </select>
        </label>
        <label className="picker">
          <span>Highlight</span>
          <select aria-label="Highlight field" value={field} onChange={(e) => setField(e.target.value)}>
            {labels.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
        </label>
        {selected && (
          <span className="small" aria-label="Highlighted range">
            {selected.label}: bytes {selected.start}–{selected.end - 1} ({selected.end - selected.start} bytes)
          </span>
        )}
      </div>
      <p className="muted small">
        {row.label === 'Protobuf'
          ? 'Framing in a lighter tone: the magic "k8s\\0", then runtime.Unknown (typeMeta, raw). Inside raw each field is its key (field number and wire type), a length for strings and messages, then the value; names come from the schema.'
          : 'Framing in a lighter tone: the self-described tag d9 d9 f7. Each map entry is its key (a byte string) then its value; []byte fields travel in tag 22.'}{' '}
        Hover a byte for the field it belongs to.
      </p>
      <HighlightedHex bytes={row.bytes} spans={spans} selected={selected} />
    </section>
  );
}

/**
 * The path the view starts from: the one in its URL (`p`), else the object or collection the route
 * names (as the other views' tabs carry it), else the route's namespace. Undefined while discovery
 * has yet to say whether the route's resource is namespaced.
 */
export function startingPath(route: Route, namespaced: boolean | undefined): string | undefined {
  if (route.extra.p) return route.extra.p;
  if (route.resource && route.version !== undefined && route.group !== undefined) {
    if (namespaced === undefined) return undefined;
    return resourcePath({ group: route.group, version: route.version, resource: route.resource, namespace: namespaced ? route.namespace : undefined, name: route.name });
  }
  return `/api/v1/namespaces/${route.namespace ?? 'default'}`;
}

export function EncodingsView({ route, context }: { route: Route; context: string }) {
  const discovery = useQuery({ ...discoveryQuery(context), enabled: !route.extra.p && !!route.resource });
  const found = findResource(discovery.data, route.group ?? '', route.version ?? '', route.resource ?? '');
  // A resource discovery does not know (or could not read) is addressed as the route says.
  const path = startingPath(route, found ? found.namespaced : discovery.isFetched ? !!route.namespace : undefined);
  const [draft, setDraft] = useState(path ?? '');
  const [state, setState] = useState<{ loading?: boolean; rows?: Row[]; note?: string; error?: string }>({});

  async function run(p: string) {
    navigate({ extra: { p } }, { replace: true });
    setState({ loading: true });
    try {
      setState(await fetchAll(context, p));
    } catch (e) {
      setState({ error: e instanceof Error ? e.message : String(e) });
    }
  }

  // A deep link (a path in the URL, or an object named by the route) shows its answer at once:
  // four GETs, cheap to send again, and nothing but reads.
  const deepLink = !!route.extra.p || !!route.name;
  const started = useRef(false);
  useEffect(() => {
    if (started.current || path === undefined) return;
    started.current = true;
    setDraft(path);
    if (deepLink) void run(path);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the starting path is known
  }, [path]);

  const json = state.rows?.[0];
  const kyaml = json?.value !== undefined ? new TextEncoder().encode(toKyaml(json.value)).length : undefined;
  return (
    <section className="stack" aria-label="Encodings">
      <h2>Encodings</h2>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(draft);
        }}
      >
        <input aria-label="Path" value={draft} onChange={(e) => setDraft(e.target.value)} style={{ flex: 1 }} />
        <button type="submit" className="primary" disabled={state.loading}>
          Fetch in every format
        </button>
      </form>
      {state.error && <p className="error-box">{state.error}</p>}
      {state.note && <p className="warning-list">{state.note}</p>}
      {state.rows && (
        <table className="kube-table" aria-label="Formats">
          <thead>
            <tr>
              <th>Format</th>
              <th>Status</th>
              <th>Content-Type</th>
              <th>Bytes</th>
              <th>Gzipped</th>
              <th>Decode</th>
              <th>Same object as JSON</th>
            </tr>
          </thead>
          <tbody>
            {state.rows.map((r) => (
              <tr key={r.label}>
                <td>{r.label}</td>
                <td>{r.status}</td>
                <td>
                  <code>{r.contentType}</code>
                </td>
                <td>{r.bytes.length.toLocaleString('en-US')}</td>
                <td>{r.gzipped?.toLocaleString('en-US') ?? '–'}</td>
                <td>{r.decodeMs !== undefined ? `${r.decodeMs.toFixed(2)} ms` : '–'}</td>
                <td aria-label={`${r.label} equality`}>
                  {r.label === 'JSON' ? (
                    <span className="muted">reference</span>
                  ) : r.error ? (
                    <span className="encodings-differs">{r.error}</span>
                  ) : r.diffs?.length ? (
                    <details>
                      <summary className="encodings-differs">differs ({r.diffs.length})</summary>
                      <ul className="small">
                        {r.diffs.map((d) => (
                          <li key={d}>{d}</li>
                        ))}
                      </ul>
                    </details>
                  ) : (
                    <span className="encodings-equal">equal</span>
                  )}
                </td>
              </tr>
            ))}
            {kyaml !== undefined && (
              <tr>
                <td>KYAML</td>
                <td colSpan={2} className="muted small">
                  not served; what <code>kubectl get -o kyaml</code> prints for the JSON
                </td>
                <td>{kyaml.toLocaleString('en-US')}</td>
                <td colSpan={3} />
              </tr>
            )}
          </tbody>
        </table>
      )}
      {state.rows && <HexExplorer rows={state.rows} />}
    </section>
  );
}
