// The YAML the Apply preview starts from: the object's identity and nothing else, so that an
// apply of it as is claims no field. It goes out as application/apply-patch+yaml, which
// kube-apiserver reads as YAML 1.1 (sigs.k8s.io/yaml): a name such as `on`, `yes` or `y` must be
// quoted, or the server reads a boolean where a string belongs. The one YAML codec quotes them.
import { toYaml } from '../../codecs/yaml';

export interface ObjectIdentity {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
}

/** apiVersion, kind, metadata.name and (when namespaced) metadata.namespace, as YAML. */
export function applySkeleton(current: ObjectIdentity): string {
  const { name, namespace } = current.metadata ?? {};
  return toYaml({ apiVersion: current.apiVersion, kind: current.kind, metadata: { name, ...(namespace ? { namespace } : {}) } });
}
