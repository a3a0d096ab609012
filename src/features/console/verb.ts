// The authorization verb a request will be checked against (API concepts / authorization: request
// verbs), so the console can ask SelfSubjectAccessReview before sending.
import { parseResourcePath } from '../../k8s/paths';
import type { ResourceAttributes } from '../../k8s/access';
import { isWatchRequest } from '../../../protocol/watch';

export function requestAttributes(method: string, path: string): ResourceAttributes | null {
  const ref = parseResourcePath(path);
  if (!ref) return null;
  // The deprecated /watch/ prefix shifts everything one segment.
  if (ref.resource === 'watch') return null;
  const watch = isWatchRequest(path, method.toUpperCase());
  let verb: string;
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
      verb = watch ? 'watch' : ref.name ? 'get' : 'list';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = ref.name ? 'delete' : 'deletecollection';
      break;
    default:
      return null;
  }
  const attrs: ResourceAttributes = { verb, group: ref.group, resource: ref.resource };
  if (ref.namespace) attrs.namespace = ref.namespace;
  if (ref.name && verb !== 'create') attrs.name = ref.name;
  if (ref.subresource) attrs.subresource = ref.subresource;
  return attrs;
}
