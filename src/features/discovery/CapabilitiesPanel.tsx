// What this server serves, as it answered when asked (k8s/capabilities): its version, CBOR,
// Protobuf, streaming lists, aggregated discovery; and, for one resource, each representation a
// list of it can be read in. A refusal is shown with the server's own Status, never guessed.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type ApiResource } from '../../k8s/discovery';
import { capabilitiesQuery, capabilitiesQueryPrefix, describeRefusal, type Probe, resourceAcceptsQuery } from '../../k8s/capabilities';
import { resourcePath } from '../../k8s/paths';

function Answer({ probe }: { probe: Probe }) {
  const mark = probe.answer === 'yes' ? 'served' : probe.answer === 'no' ? 'refused' : 'unknown';
  return (
    <dd className={probe.answer} title={`${probe.request.path} (Accept: ${probe.request.accept})`}>
      <strong>{mark}</strong> <span className="small">{probe.answer === 'no' && probe.status ? describeRefusal(probe) : probe.detail}</span>
    </dd>
  );
}

/** ✓ served, ✗ refused, ? the probe could not tell (the user may not list the probed collection, or the network failed). */
function mark(p: Probe): string {
  return p.answer === 'yes' ? '✓' : p.answer === 'no' ? '✗' : '?';
}

export function CapabilitiesPanel({ context, namespace }: { context: string; namespace?: string }) {
  const qc = useQueryClient();
  const caps = useQuery(capabilitiesQuery(context, namespace));
  if (caps.isLoading) return <p className="muted small">Asking the server what it serves…</p>;
  if (!caps.data) return null;
  const c = caps.data;
  return (
    <details className="capabilities small" aria-label="Server capabilities">
      <summary>
        Server {c.version?.gitVersion ?? '(version unknown)'}: CBOR {mark(c.cbor)} · streaming lists {mark(c.watchList)} · aggregated discovery {mark(c.aggregatedDiscovery)}
      </summary>
      <dl className="kv">
        <dt>CBOR</dt>
        <Answer probe={c.cbor} />
        <dt>Protobuf</dt>
        <Answer probe={c.protobuf} />
        <dt>Streaming lists</dt>
        <Answer probe={c.watchList} />
        <dt>Discovery</dt>
        <Answer probe={c.aggregatedDiscovery} />
      </dl>
      <button type="button" className="ghost" onClick={() => void qc.invalidateQueries({ queryKey: capabilitiesQueryPrefix(context) })}>
        Ask again
      </button>
    </details>
  );
}

/** Each representation a list of this resource answers in (one GET ?limit=1 each, when opened). */
export function RepresentationsPanel({ context, resource: r, namespace }: { context: string; resource: ApiResource; namespace?: string }) {
  const path = resourcePath({ group: r.group, version: r.version, resource: r.resource, namespace: r.namespaced ? namespace || 'default' : undefined });
  const [open, setOpen] = useState(false);
  const answers = useQuery({ ...resourceAcceptsQuery(context, path), enabled: open && r.verbs.includes('list') });
  if (!r.verbs.includes('list')) return null;
  return (
    <details className="capabilities small" aria-label="Representations" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Representations this server answers a list of {r.resource} in</summary>
      <p className="muted">
        Each asked of the server with <code>GET {path}?limit=1</code>.
      </p>
      {answers.data ? (
        <dl className="kv">
          {answers.data.map((a) => (
            <div key={a.label} style={{ display: 'contents' }}>
              <dt>{a.label}</dt>
              <Answer probe={a.probe} />
            </div>
          ))}
        </dl>
      ) : (
        open && <p className="muted">Asking…</p>
      )}
    </details>
  );
}
