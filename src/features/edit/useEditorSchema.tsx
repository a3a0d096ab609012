// The JSON schema that makes the object editor schema-aware: the kind's OpenAPI v3 schema at the
// group version being edited, built-in or custom. The index and the group version's document are
// the schema browser's queries (same keys), so each document is fetched once per group version
// and kept (a `?hash=` URL never changes content); the schema worker parses it and converts the
// kind, once per document and kind.
// A schema that cannot be loaded leaves the plain editor working, with a notice saying why.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { ApiResource } from '../../k8s/discovery';
import { groupVersionKey, type JsonSchema, openApiIndexQuery, schemaAnswerQuery } from '../../k8s/openapi';

export interface EditorSchemaState {
  schema?: JsonSchema;
  /** 'loading' while the index or document is on its way; 'ready' with a schema; 'failed' with a reason. */
  state: 'loading' | 'ready' | 'failed' | 'none';
  problem?: string;
  source?: string;
}

export function useEditorSchema(context: string, res: ApiResource | undefined): EditorSchemaState {
  const index = useQuery({ ...openApiIndexQuery(context), enabled: !!res, retry: 1 });
  const url = res ? index.data?.paths[groupVersionKey(res.group, res.version)]?.serverRelativeURL : undefined;
  // Parsed and converted in the schema worker: the page receives the JSON schema only.
  const doc = useQuery({ ...schemaAnswerQuery(context, url, res ? { q: 'editor', group: res.group, version: res.version, kind: res.kind } : undefined), retry: 1 });
  // An index read before the group version was served (a CRD created since) lacks it: read the
  // index again once before saying there is no document. The server publishes a new CRD's document
  // a moment after serving the CRD, so the second read may still lack it; then the notice stays.
  const reread = useRef(new Set<string>());
  const missing = res && index.data && !url && !index.isFetching ? groupVersionKey(res.group, res.version) : undefined;
  useEffect(() => {
    if (!missing || reread.current.has(missing)) return;
    reread.current.add(missing);
    void index.refetch();
  }, [missing, index]);
  return useMemo((): EditorSchemaState => {
    if (!res) return { state: 'none' };
    const why = (e: unknown) => (e instanceof Error ? e.message : String(e));
    if (index.error) return { state: 'failed', problem: `could not read /openapi/v3: ${why(index.error)}` };
    if (index.data && !url) {
      if (index.isFetching || !reread.current.has(groupVersionKey(res.group, res.version))) return { state: 'loading' };
      return { state: 'failed', problem: `the server publishes no OpenAPI v3 document for ${groupVersionKey(res.group, res.version)}` };
    }
    if (doc.error) return { state: 'failed', problem: `could not read ${url?.split('?')[0]}: ${why(doc.error)}` };
    if (!doc.data) return { state: 'loading' };
    if (doc.data.found === 'no-kind') return { state: 'failed', problem: `the document for ${groupVersionKey(res.group, res.version)} has no schema for kind ${res.kind}` };
    if (doc.data.found === 'problem') return { state: 'failed', problem: `the schema could not be turned into a JSON schema: ${doc.data.problem}` };
    return { state: 'ready', schema: doc.data.schema, source: url?.split('?')[0] };
  }, [res, index.error, index.data, index.isFetching, url, doc.error, doc.data]);
}

/** One line under the editor: where completion and validation come from, or why there are none. */
export function SchemaNotice({ schema }: { schema: EditorSchemaState }) {
  if (schema.state === 'none') return null;
  if (schema.state === 'failed')
    return (
      <p className="edit-schema-notice warn small" role="status" aria-label="Schema notice">
        Plain editor: {schema.problem}. Completion, hover and validation marks need the schema; editing and sending work as usual, and the server still validates.
      </p>
    );
  if (schema.state === 'loading')
    return (
      <p className="muted small" role="status" aria-label="Schema notice">
        Loading the schema…
      </p>
    );
  return (
    <p className="muted small" role="status" aria-label="Schema notice">
      Schema-aware: completion (Ctrl+Space), hover and validation marks from <code>{schema.source}</code>. Marks are the schema's view before sending; the server has the last word.
    </p>
  );
}
