// The one place that pins the local control plane's versions. Changing a value here (and the
// matching go.mod in ./go/) is what triggers a rebuild; the cache is keyed by these strings.
export const KUBERNETES_VERSION = 'v1.37.1';
export const ETCD_VERSION = 'v3.6.16';

/**
 * The older release the skew suite runs against (`npm run cluster -- --kubernetes v1.33`). Four
 * minors behind the default, the far end of what managed offerings keep in standard support; in
 * its default configuration it serves no CBOR (CBORServingAndStorage is alpha and off) and no
 * streaming lists (WatchList went back to off by default in v1.33: kube_features.go of v1.33.13).
 */
export const OLDER_KUBERNETES_VERSION = 'v1.33.13';

export const BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubectl'] as const;
export type BinaryName = (typeof BINARIES)[number];
/** What a control plane needs to start; kubectl is for people, the benches and the plugin test. */
export const CONTROL_PLANE_BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager'] as const satisfies readonly BinaryName[];

/** One buildable Kubernetes release: its wrapper modules in ./go/ and how kube-apiserver is started. */
export interface Release {
  kubernetes: string;
  /** The etcd it runs on (the default release's for every release: see RELEASES). */
  etcd: string;
  /** Wrapper module folders under ./go/. */
  kubeModule: string;
  etcdModule: string;
  /** kube-apiserver's --feature-gates value ('' for none: the release's defaults). */
  featureGates: string;
  /** The binaries built for it (BINARIES, or CONTROL_PLANE_BINARIES: without kubectl). */
  binaries: readonly BinaryName[];
  /**
   * The aggregated API server served beside kube-apiserver: k8s.io/sample-apiserver at the tag of
   * the release's staging modules, from its wrapper module under ./go/. Absent: none.
   */
  aggregated?: { module: string; version: string };
}

export const RELEASES: readonly Release[] = [
  // CBOR is alpha and off by default; WatchList (streaming lists) is on by default and stays on.
  { kubernetes: KUBERNETES_VERSION, etcd: ETCD_VERSION, kubeModule: 'kube', etcdModule: 'etcd', featureGates: 'CBORServingAndStorage=true', binaries: BINARIES, aggregated: { module: 'sample-apiserver', version: 'v0.37.1' } },
  // Started as the release ships: what a person meets on a cluster of that version. On the default
  // release's etcd, not the v3.5.24 v1.33 ships with: the explorer never talks to etcd, and
  // etcd v3.6 serves the v3 API that v1.33's client (etcd client v3.5) speaks (the skew suite and
  // the capability probes run on it). One etcd build instead of two saves a brand-new machine
  // about 2 minutes (etcd v3.5.24 compiled 303 packages of its own); the second build of the same
  // etcd module is only a link, from Go's build cache. No kubectl either: nothing runs it against
  // this release, and it is 196 packages of its own and a 60 MB link. No aggregated API server
  // either: the sample-apiserver of v0.33 would be a second build of every apiserver package.
  { kubernetes: OLDER_KUBERNETES_VERSION, etcd: ETCD_VERSION, kubeModule: 'kube-v1.33', etcdModule: 'etcd', featureGates: '', binaries: CONTROL_PLANE_BINARIES },
];

/**
 * The release for a version as a person types it: `v1.33.13`, `1.33.13`, `v1.33` or `1.33`
 * (a minor names its one pinned patch). Undefined means the default.
 */
export function releaseFor(version?: string): Release {
  if (version === undefined || version === '') return RELEASES[0]!;
  const wanted = version.startsWith('v') ? version : `v${version}`;
  const found = RELEASES.find((r) => r.kubernetes === wanted || r.kubernetes.startsWith(`${wanted}.`));
  if (!found) {
    throw new Error(`Kubernetes ${version} is not one of the releases this project builds (${RELEASES.map((r) => r.kubernetes).join(', ')}); add a wrapper module in proxy/cluster/go/ and an entry in proxy/cluster/versions.ts for another`);
  }
  return found;
}
