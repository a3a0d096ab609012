// `npm run cluster`: builds (when needed) and starts the local control plane in .cluster/,
// prints how to use it, and stops every child on Ctrl-C or SIGTERM.
import { resolve } from 'node:path';
import { ensureBinaries, ensureHelm, ensureSampleApiserver, ensureXrayInformer } from './build';
import { startControlPlane } from './controlplane';
import { type SeedOptions, seedCluster } from './seed';
import { parseSeedFlags } from './seedFlags';
import { RELEASES, releaseFor } from './versions';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(`usage: npm run cluster [-- [--fresh] [--dir DIR] [--no-controller-manager] [--kubernetes VERSION]]
       npm run cluster:build [-- --kubernetes VERSION]   build or verify the cached binaries only
  --kubernetes VERSION     which release: ${RELEASES.map((r) => r.kubernetes).join(' (default), ')}; a minor (v1.33) will do
  --fresh                  wipe etcd data before starting (PKI and kubeconfig are kept)
  --dir DIR                state folder (default .cluster, or .cluster-VERSION for another release)
  --no-controller-manager  run etcd and kube-apiserver only
  --runtime-config LIST    kube-apiserver's --runtime-config, e.g. resource.k8s.io/v1beta2=true (serve a
                           deprecated beta version) or node.k8s.io/v1=false (a cluster without it)
  --seed PRESET            once ready, fill it: large (150,000 Pods in 150 namespaces, 300 CRDs), medium, small
  --seed-pods N, --seed-namespaces N, --seed-crds N   override the preset's sizes`);
  process.exit(0);
}
const dirArg = args.indexOf('--dir');
const runtimeConfigArg = args.indexOf('--runtime-config');
const runtimeConfig = runtimeConfigArg >= 0 ? args[runtimeConfigArg + 1] : undefined;
if (runtimeConfigArg >= 0 && !/^[\w./-]+=(true|false)(,[\w./-]+=(true|false))*$/.test(runtimeConfig ?? '')) {
  console.error(`--runtime-config: expected group/version=true|false[,…], got ${runtimeConfig ?? '(nothing)'}`);
  process.exit(2);
}
const versionArg = args.indexOf('--kubernetes');
const kubernetesVersion = versionArg >= 0 ? args[versionArg + 1] : undefined;
// Another release gets its own state folder by default: etcd data is not shared across releases.
const release = (() => {
  try {
    return releaseFor(kubernetesVersion);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(2);
  }
})();
const defaultDir = release === releaseFor() ? '.cluster' : `.cluster-${release.kubernetes}`;
const dir = resolve(dirArg >= 0 && args[dirArg + 1] ? args[dirArg + 1]! : defaultDir);

async function main(): Promise<void> {
  const started = Date.now();
  const seed = seedOptions(); // before the start: a bad flag fails at once
  if (args.includes('--build-only')) {
    const b = await ensureBinaries({ kubernetesVersion: release.kubernetes });
    console.log(`binaries (${b.source}): ${b.dir}`);
    const sample = await ensureSampleApiserver({ kubernetesVersion: release.kubernetes });
    console.log(sample ? `aggregated API server: ${sample}` : `no aggregated API server for Kubernetes ${release.kubernetes}`);
    // The X-ray tests' client-go informer runs against the default release only.
    if (release === releaseFor()) console.log(`X-ray informer: ${await ensureXrayInformer({ kubernetesVersion: release.kubernetes })}`);
    // The Helm chart's test renders with helm itself: built once, with the default release's tools.
    if (release === releaseFor()) console.log(`helm: ${await ensureHelm()}`);
    return;
  }
  const cp = await startControlPlane({ dir, kubernetesVersion: release.kubernetes, fresh: args.includes('--fresh'), controllerManager: !args.includes('--no-controller-manager'), aggregatedApi: !args.includes('--no-aggregated'), ...(runtimeConfig ? { runtimeConfig } : {}) });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping kube-controller-manager, kube-apiserver and etcd…`);
    void cp.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGHUP', () => stop('SIGHUP'));
  // The older release builds no kubectl: any kubectl on the PATH will do for these.
  const kubectl = cp.binaries.kubectl ?? 'kubectl';
  console.log(`
Local control plane is ready (Kubernetes ${cp.kubernetesVersion}, etcd ${cp.etcdVersion}, binaries from ${cp.binaries.source}) in ${((Date.now() - started) / 1000).toFixed(1)} s.
  API server:  ${cp.server}
  kubeconfig:  ${cp.kubeconfig}
  contexts:    ${cp.contexts.admin} (system:masters, current), ${cp.contexts.viewer} (bound to the 'view' ClusterRole)
  state, logs: ${cp.dir}
  runtime:     ${runtimeConfig ? `--runtime-config=${runtimeConfig}` : 'the release\'s default API versions'}
  aggregated:  ${cp.aggregated ? `${cp.aggregated.group} (sample-apiserver at ${cp.aggregated.server}, registered as APIServices)` : 'none'}

Use it with kubectl:
  export KUBECONFIG=${cp.kubeconfig}
  ${kubectl} get --raw /version
  ${kubectl} --context ${cp.contexts.viewer} auth can-i create configmaps   # no

Press Ctrl-C to stop.`);
  if (seed) await seedCluster(cp.server, cp.credentials('admin'), { ...seed, log: (l) => console.log(l) });
}

/** `--seed PRESET` and its overrides, or undefined when no seed was asked for; exits on a bad flag. */
function seedOptions(): Partial<SeedOptions> | undefined {
  const flags = parseSeedFlags(args);
  if ('error' in flags) {
    console.error(flags.error);
    process.exit(2);
  }
  return flags.seed;
}

main().catch((e: unknown) => {
  console.error(`\nnpm run cluster failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
