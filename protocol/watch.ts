// "Is this request a watch?" answered as kube-apiserver answers it, for both sides: the proxy
// (no response timeout, asked for uncompressed) and the page (the console shows a stream).
//
// The rule (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go, NewRequestInfo):
// - a resource path is /api/<version>/… or /apis/<group>/<version>/…; right after the version,
//   the special verb `watch` followed by at least one more segment makes a watch whatever the
//   query says (the deprecated /watch/ paths);
// - otherwise a GET or HEAD is "get"; one without an object name becomes "watch" when the query's
//   `watch` parameter is true, else "list". `/namespaces/<ns>/<resource>` names no object;
//   `/namespaces/<ns>` (or `/namespaces/<ns>/status|finalize`) names the namespace; `<resource>/
//   <name>` names one, so `?watch=1` on a named GET is a plain get.
// - the parameter is read as every boolean query parameter is (k8s.io/apimachinery/pkg/runtime/
//   conversion.go, Convert_Slice_string_To_bool): absent is false; the first value `0` or `false`
//   (any case) is false; any other value, the empty string of `?watch=` or `?watch` included, is true.
// Paths are read decoded, as Go's URL.Path is.

/** apimachinery's reading of a boolean query parameter: absent, `0` or `false` (any case) is false; anything else, `""` included, is true. */
export function queryFlag(query: string, name: string): boolean {
  const v = new URLSearchParams(query).get(name);
  return v !== null && v !== '0' && v.toLowerCase() !== 'false';
}

/** The segments of a path after the API group and version, or undefined when it is not a resource path. */
function resourceParts(path: string): string[] | undefined {
  let decoded = path;
  if (path.includes('%')) {
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return undefined;
    }
  }
  // Go's splitPath: strings.Split(strings.Trim(path, "/"), "/").
  const parts = decoded.replace(/^\/+|\/+$/g, '').split('/');
  if (parts.length < 3) return undefined;
  if (parts[0] === 'api') return parts.slice(2);
  if (parts[0] === 'apis' && parts.length >= 4) return parts.slice(3);
  return undefined;
}

/** Whether the parts after the version name one object (requestinfo.go's Name). */
function namesObject(parts: string[]): boolean {
  let rest = parts;
  if (rest[0] === 'namespaces' && rest.length > 2 && rest[2] !== 'status' && rest[2] !== 'finalize') rest = rest.slice(2);
  return rest.length >= 2;
}

/** True when kube-apiserver takes this request for a watch (its verb is `watch`): the response is a stream with no end. */
export function isWatchRequest(pathAndQuery: string, method = 'GET'): boolean {
  // Every proxied request passes here: one that cannot name a watch answers at once.
  if (!pathAndQuery.includes('watch') && !pathAndQuery.includes('%')) return false;
  const q = pathAndQuery.indexOf('?');
  const parts = resourceParts(q < 0 ? pathAndQuery : pathAndQuery.slice(0, q));
  if (!parts) return false;
  if (parts[0] === 'watch') return parts.length >= 2;
  if (method !== 'GET' && method !== 'HEAD') return false;
  return q >= 0 && !namesObject(parts) && queryFlag(pathAndQuery.slice(q + 1), 'watch');
}
