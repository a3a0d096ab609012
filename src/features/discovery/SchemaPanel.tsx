// A resource's OpenAPI v3 schema, browsable like `kubectl explain`: one level of fields at a time,
// with types, required, defaults, enums, the extensions that decide how lists and maps merge
// (strategic merge patch and server-side apply read different ones), and CEL validation rules.
import { useQuery } from '@tanstack/react-query';
import { hrefFor, navigate } from '../../routing';
import type { ApiResource } from '../../k8s/discovery';
import { type CelRule, describeSchema, shortTypeName, fieldsOf, findKindSchema, groupVersionKey, type MergeExtensions, openApiDocumentQuery, openApiIndexQuery, schemaAt } from '../../k8s/openapi';
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
  const doc = useQuery({ ...openApiDocumentQuery(context, url ?? ''), enabled: !!url });
  const path = fieldPath ? fieldPath.split('.').filter(Boolean) : [];
  const go = (p: string[]) => navigate({ extra: { field: p.join('.') } }, { replace: false });
  const linkTo = (p: string[]) => hrefFor({ extra: { field: p.join('.') } }, true);

  if (index.error) return <ErrorBox error={index.error} title="Could not read /openapi/v3" />;
  if (doc.error) return <ErrorBox error={doc.error} title="Could not read the schema" />;
  if (index.data && !url) return <p className="muted">The server publishes no OpenAPI v3 document for {groupVersionKey(resource.group, resource.version)}.</p>;
  if (!doc.data) return <p className="muted">Loading the schema…</p>;

  const kind = findKindSchema(doc.data, resource.group, resource.version, resource.kind);
  if (!kind) return <p className="muted">No schema for kind {resource.kind} in this document.</p>;
  const node = path.length ? schemaAt(doc.data, kind.schema, path) : kind.schema;
  if (!node) return <p className="muted">No field {fieldPath} in {resource.kind}.</p>;
  const described = describeSchema(doc.data, node);
  // The kind's own component is not a reference, so name its type from the component.
  const info = path.length ? described : { ...described, type: shortTypeName(kind.refName ?? resource.kind) };
  const fields = fieldsOf(doc.data, node, path.length ? `.${path.join('.')}` : '');

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
