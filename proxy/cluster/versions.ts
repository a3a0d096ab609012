// The one place that pins the local control plane's versions. Changing a value here (and the
// matching go.mod in ./go/) is what triggers a rebuild; the cache is keyed by these strings.
export const KUBERNETES_VERSION = 'v1.37.1';
export const ETCD_VERSION = 'v3.6.16';

export const BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubectl'] as const;
export type BinaryName = (typeof BINARIES)[number];
