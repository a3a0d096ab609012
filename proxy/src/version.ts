// `--version`: the explorer's own version (package.json's, stamped into the packaged executable at
// build time) and the versions of the local control plane it starts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ETCD_VERSION, KUBERNETES_VERSION } from '../cluster/versions';
import { REPO_ROOT } from './static';

// Replaced by esbuild when packaging (proxy/package/build.ts); absent under tsx.
declare const __EXPLORER_VERSION__: string | undefined;

export function explorerVersion(): string {
  if (typeof __EXPLORER_VERSION__ === 'string') return __EXPLORER_VERSION__;
  try {
    return (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export function versionText(): string {
  const packaged = typeof __EXPLORER_VERSION__ === 'string';
  return `kube-api-explorer ${explorerVersion()}${packaged ? '' : ' (checkout)'}
  local control plane: Kubernetes ${KUBERNETES_VERSION}, etcd ${ETCD_VERSION}
  node ${process.version} ${process.platform}-${process.arch}`;
}
