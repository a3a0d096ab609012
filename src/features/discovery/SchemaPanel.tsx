// A resource's OpenAPI v3 schema, browsable like `kubectl explain`: one level of fields at a time,
// with types, required, defaults, enums, the extensions that decide how lists and maps merge
// (strategic merge patch and server-side apply read different ones), and CEL validation rules.
import { useQuery } from '@tanstack/react-query';
import { hrefFor, navigate } from '../../routing';
import type { ApiResource } from '../../k8s/discovery';
import { type CelRule, groupVersionKey, type MergeExtensions, openApiIndexQuery, schemaAnswerQuery } from '../../k8s/openapi';
import { ErrorBox } from '../../ui/ErrorBox';

function Extensions({ e }: { e: MergeExtensions }) {
  const items: string[] = [];
  if (e.listType) items.push(`list-type: ${e.listType}`);
  if (e.listMapKeys) items.push(`list-map-keys: ${e.listMapKeys.join(', ')}`);
  if (e.mapType) items.push(`map-type: ${e.mapType}`);
  if (e.patchStrategy) items.push(`patch-strategy: ${e.patchStrategy}`);
  if (e.patchMergeKey) items.push(`patch-merge-key: ${e.patchMergeKey}`);
  if (e.preserveUnknownFields) items.push('preserve-unknown-fields');
  if (e.embeddedResource) items.push('embedded-resource');
  return (
    <>
      {items.map((i) => (
        <span key={i} className="badge" title={`x-kubernetes-${i.split(':')[0]}`}>
          {i}
        </span>
      ))}
    </>
  );
}

function Rules({ rules }: { rules: CelRule[] }) {
  if (!rules.length) return null;
  return (
    <ul className="small" aria-label="Validation rules">
      {rules.map((r, i) => (
        <li key={i}>
          CEL <code>{r.rule}</code>
          {r.message && <> — “{r.message}”</>}
          {r.messageExpression && (
            <>
              {' '}
              message <code>{r.messageExpression}</code>
            </>
          )}
          {r.reason && <span className="badge">{r.reason}</span>}
          {r.fieldPath && <span className="muted"> at {r.fieldPath}</span>}
        </li>
      ))}
    </ul>
  );
}

export function SchemaPanel({ context, resource, fieldPath }: { context: string; resource: ApiResource; fieldPath: string }) {
  const index = useQuery(openApiIndexQuery(context));
  const url = index.data?.paths[groupVersionKey(resource.group, resource.version)]?.serverRelativeURL;
  const path = fieldPath ? fieldPath.split('.').filter(Boolean) : [];
  // The document is parsed and walked in the schema worker; the page gets this level's fields.
  const answer = useQuery(schemaAnswerQuery(context, url, { q: 'explain', group: resource.group, version: resource.version, kind: resource.kind, path }));
  const go = (p: string[]) => navigate({ extra: { field: p.join('.') } }, { replace: false });
  const linkTo = (p: string[]) => hrefFor({ extra: { field: p.join('.') } }, true);

  if (index.error) return <ErrorBox error={index.error} title="Could not read /openapi/v3" />;
  if (answer.error) return <ErrorBox error={answer.error} title="Could not read the schema" />;
  if (index.data && !url) return <p className="muted">The server publishes no OpenAPI v3 document for {groupVersionKey(resource.group, resource.version)}.</p>;
  if (!answer.data) return <p className="muted">Loading the schema…</p>;
  if (answer.data.found === 'no-kind') return <p className="muted">No schema for kind {resource.kind} in this document.</p>;
  if (answer.data.found === 'no-field') return <p className="muted">No field {fieldPath} in {resource.kind}.</p>;
  const { info, fields } = answer.data;

  return (
    <section aria-label="Schema">
      <h3>Schema</h3>
      <nav aria-label="Field path" className="row small">
        <a
          href={linkTo([])}
          onClick={(e) => {
            e.preventDefault();
            go([]);
          }}
        >
          {resource.kind}
        </a>
        {path.map((p, i) => (
          <span key={i}>
            .{' '}
            <a
              href={linkTo(path.slice(0, i + 1))}
              onClick={(e) => {
                e.preventDefault();
                go(path.slice(0, i + 1));
              }}
            >
              {p}
            </a>
          </span>
        ))}
        <span className="muted">
          &lt;{info.type}&gt; · from {url?.split('?')[0]}
        </span>
      </nav>
      {info.description && <p className="small" style={{ whiteSpace: 'pre-wrap' }}>{info.description}</p>}
      <Extensions e={info.extensions} />
      <Rules rules={info.validations} />
      <table className="grid" aria-label="Fields">
        <thead>
          <tr>
            <th>field</th>
            <th>type</th>
            <th>description</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => (
            <tr key={f.name}>
              <td>
                {f.hasFields ? (
                  <a
                    href={linkTo([...path, f.name])}
                    onClick={(e) => {
                      e.preventDefault();
                      go([...path, f.name]);
                    }}
                  >
                    <code>{f.name}</code>
                  </a>
                ) : (
                  <code>{f.name}</code>
                )}
                {f.required && <span className="badge warn">required</span>}
              </td>
              <td>
                <code>&lt;{f.type}&gt;</code>
                {f.format && <div className="muted small">format {f.format}</div>}
                {f.constraints.map((c) => (
                  <div key={c.name} className="muted small">
                    {c.name} <code>{typeof c.value === 'string' ? c.value : JSON.stringify(c.value)}</code>
                  </div>
                ))}
              </td>
              <td className="small">
                <Extensions e={f.extensions} />
                {f.default !== undefined && (
                  <div>
                    default <code>{JSON.stringify(f.default)}</code>
                  </div>
                )}
                {f.enum && (
                  <div>
                    one of{' '}
                    {f.enum.map((v) => (
                      <code key={String(v)} className="badge">
                        {String(v)}
                      </code>
                    ))}
                  </div>
                )}
                <Rules rules={f.validations} />
                <details>
                  <summary className="muted">{(f.description ?? '').split('\n')[0]!.slice(0, 120) || '(no description)'}</summary>
                  <p style={{ whiteSpace: 'pre-wrap' }}>{f.description}</p>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
