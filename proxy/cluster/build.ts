import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedGoDir } from '../package/embedded';
import { type BinaryName, type Release, releaseFor } from './versions';

const here = dirname(fileURLToPath(import.meta.url));
// The packaged executable carries the go/ folder as assets and writes it out when asked for it.
const goDir = embeddedGoDir() ?? join(here, 'go');

/** Paths of a release's binaries; kubectl only where the release builds it (versions.ts). */
export type Binaries = Record<Exclude<BinaryName, 'kubectl'>, string> & { kubectl?: string; dir: string; source: 'cache' | 'built' | 'KUBEBUILDER_ASSETS' };

/** kubectl of a release that builds it (the default one); a clear error for one that does not. */
export function kubectlOf(b: Binaries): string {
  if (!b.kubectl) throw new Error(`no kubectl in ${b.dir}: only the default release (${releaseFor().kubernetes}) builds it`);
  return b.kubectl;
}

export class BuildError extends Error {
  constructor(message: string, readonly hint: string) {
    super(`${message}\n  how to fix: ${hint}`);
    this.name = 'BuildError';
  }
}

/**
 * Where built binaries live: outside the repository, keyed by the pinned versions, one folder per
 * release side by side (the default one and the older one of the skew suite).
 */
export function cacheDir(release: Release = releaseFor()): string {
  const base = process.env.KUBE_EXPLORER_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kube-api-explorer');
  return join(base, `k8s-${release.kubernetes}-etcd-${release.etcd}`);
}

/** A fingerprint of the wrapper modules, so that an edited go.mod/go.sum also invalidates the cache. */
function sourceStamp(release: Release): string {
  const h = createHash('sha256');
  const { kubeModule: k, etcdModule: e } = release;
  for (const f of [`${k}/go.mod`, `${k}/go.sum`, `${e}/go.mod`, `${e}/go.sum`, `${e}/main.go`]) {
    // The default modules are hashed under their historical names, so that its cache stays valid.
    h.update(f).update(readFileSync(join(goDir, f)));
  }
  return `${release.kubernetes} ${release.etcd} ${h.digest('hex').slice(0, 16)}`;
}

function complete(dir: string, release: Release): boolean {
  return release.binaries.every((b) => existsSync(join(dir, b)));
}

function withPaths(dir: string, source: Binaries['source'], release: Release): Binaries {
  const out = { dir, source } as Binaries;
  for (const b of release.binaries) out[b] = join(dir, b);
  return out;
}

export interface EnsureOptions {
  /** Progress lines for a person watching a build that takes minutes. */
  log?: (line: string) => void;
  /** Which release (see versions.ts: `v1.33`, `v1.33.13`, …); the default release when absent. */
  kubernetesVersion?: string;
}

/**
 * Returns the control-plane binaries, building them on first use. Honours the envtest convention:
 * when KUBEBUILDER_ASSETS names a folder holding the binaries, those are used as they are (for the
 * default release only: they cannot say which release they are).
 */
export async function ensureBinaries(opts: EnsureOptions = {}): Promise<Binaries> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const release = releaseFor(opts.kubernetesVersion);
  const assets = release === releaseFor() ? process.env.KUBEBUILDER_ASSETS : undefined;
  if (assets) {
    if (complete(assets, release)) return withPaths(assets, 'KUBEBUILDER_ASSETS', release);
    const missing = release.binaries.filter((b) => !existsSync(join(assets, b)));
    log(`KUBEBUILDER_ASSETS=${assets} lacks ${missing.join(', ')}; building our own instead.`);
  }
  const dir = cacheDir(release);
  const stampFile = join(dir, 'STAMP');
  const stamp = sourceStamp(release);
  if (complete(dir, release) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    return withPaths(dir, 'cache', release);
  }
  await buildAll(release, dir, stamp, log);
  return withPaths(dir, 'built', release);
}

async function buildAll(release: Release, dir: string, stamp: string, log: (l: string) => void): Promise<void> {
  const { kubernetes: KUBERNETES_VERSION, etcd: ETCD_VERSION } = release;
  await checkGo(KUBERNETES_VERSION);
  // Build into a scratch folder and rename at the end, so an interrupted build never leaves a
  // half-filled cache that a later start would trust.
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const started = Date.now();
  const commands = release.binaries.filter((b) => b !== 'etcd');
  log(`Building Kubernetes ${KUBERNETES_VERSION} (${commands.join(', ')}) and etcd ${ETCD_VERSION} from Go modules.`);
  log('A first build takes several minutes (about 10 to 20 on 2 cores); later starts reuse the cache:');
  log(`  ${dir}`);
  const [major, minor] = KUBERNETES_VERSION.replace(/^v/, '').split('.');
  const buildDate = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  // Without these, /version reports v0.0.0-master (component-base/version defaults).
  const kubeLdflags = [
    '-s -w',
    ...['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => [
      `-X ${pkg}.gitVersion=${KUBERNETES_VERSION}`,
      `-X ${pkg}.gitMajor=${major}`,
      `-X ${pkg}.gitMinor=${minor}`,
      `-X ${pkg}.gitTreeState=clean`,
      `-X ${pkg}.buildDate=${buildDate}`,
    ]),
  ].join(' ');
  await goBuild(join(goDir, release.kubeModule), ['-ldflags', kubeLdflags, '-o', `${tmp}/`, ...commands.map((c) => `k8s.io/kubernetes/cmd/${c}`)], 'Kubernetes', log);
  await goBuild(join(goDir, release.etcdModule), ['-ldflags', '-s -w', '-o', join(tmp, 'etcd'), '.'], 'etcd', log);
  writeFileSync(join(tmp, 'STAMP'), stamp);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(tmp, dir);
  log(`Built in ${Math.round((Date.now() - started) / 1000)} s.`);
}

/**
 * The release's aggregated API server (k8s.io/sample-apiserver), built on first use into a cache
 * folder of its own: kept apart from the control plane's binaries, so that adding it rebuilt none
 * of those. Its wrapper module pins the same dependency versions as the kube module, so Go's
 * build cache already holds all but its own packages. Undefined when the release has none.
 * Several processes may ask at once (parallel sessions, test runs): one builds, the others wait
 * for its binary (a lock folder holding the builder's pid; a dead builder's lock is taken over).
 */
export async function ensureSampleApiserver(opts: EnsureOptions = {}): Promise<string | undefined> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const release = releaseFor(opts.kubernetesVersion);
  const agg = release.aggregated;
  if (!agg) return undefined;
  const h = createHash('sha256');
  for (const f of ['go.mod', 'go.sum']) h.update(f).update(readFileSync(join(goDir, agg.module, f)));
  const dir = join(dirname(cacheDir(release)), `sample-apiserver-${agg.version}-${h.digest('hex').slice(0, 16)}`);
  return cachedBuild(dir, 'sample-apiserver', release.kubernetes, log, async (tmp) => {
    log(`Building the aggregated API server k8s.io/sample-apiserver ${agg.version} (its own packages; the rest come from Go's build cache) into ${dir}`);
    await goBuild(join(goDir, agg.module), ['-ldflags', '-s -w', '-o', join(tmp, 'sample-apiserver'), 'k8s.io/sample-apiserver'], 'sample-apiserver', log);
  });
}

/**
 * The X-ray tests' client-go informer (go/xray-informer/main.go), built on first use like the
 * sample-apiserver: in a module with the kube module's go.mod and go.sum, so that client-go comes
 * from Go's build cache (the packages kubectl was built from), into a cache folder keyed by their
 * digest and the program's.
 */
export async function ensureXrayInformer(opts: EnsureOptions = {}): Promise<string> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const release = releaseFor(opts.kubernetesVersion);
  const sources = [join(goDir, release.kubeModule, 'go.mod'), join(goDir, release.kubeModule, 'go.sum'), join(goDir, 'xray-informer', 'main.go')];
  const h = createHash('sha256');
  for (const f of sources) h.update(basename(f)).update(readFileSync(f));
  const dir = join(dirname(cacheDir(release)), `xray-informer-${release.kubernetes}-${h.digest('hex').slice(0, 16)}`);
  return cachedBuild(dir, 'xray-informer', release.kubernetes, log, async (tmp) => {
    log(`Building the X-ray tests' client-go informer into ${dir}`);
    const mod = join(tmp, 'module');
    mkdirSync(mod);
    for (const f of sources) copyFileSync(f, join(mod, basename(f)));
    await goBuild(mod, ['-ldflags', '-s -w', '-o', join(tmp, 'xray-informer'), '.'], 'xray-informer', log);
    rmSync(mod, { recursive: true, force: true });
  });
}

/** helm's version, as its wrapper module (go/helm/go.mod) pins it. */
const HELM_VERSION = 'v3.22.0';

/**
 * helm, built from its Go module (go/helm) on first use into a cache folder of its own, like the
 * aggregated API server: the Helm chart's test renders the chart with helm itself (issue 48). Its
 * wrapper pins the kube module's k8s.io versions, so Go's build cache serves the packages both use.
 */
export async function ensureHelm(opts: EnsureOptions = {}): Promise<string> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const release = releaseFor(undefined);
  const h = createHash('sha256');
  for (const f of ['go.mod', 'go.sum']) h.update(f).update(readFileSync(join(goDir, 'helm', f)));
  const dir = join(dirname(cacheDir(release)), `helm-${HELM_VERSION}-${h.digest('hex').slice(0, 16)}`);
  return cachedBuild(dir, 'helm', release.kubernetes, log, async (tmp) => {
    log(`Building helm ${HELM_VERSION} from its Go module into ${dir}`);
    await goBuild(join(goDir, 'helm'), ['-ldflags', '-s -w', '-o', join(tmp, 'helm'), 'helm.sh/helm/v3/cmd/helm'], 'helm', log);
  });
}

/**
 * A binary built once into `dir` (named `name` there) by `build`, which writes it into a scratch
 * folder renamed into place when done. Several processes may ask at once (parallel sessions, test
 * runs): one builds, the others wait for its binary (a lock folder holding the builder's pid; a
 * dead builder's lock is taken over).
 */
async function cachedBuild(dir: string, name: string, kubernetesVersion: string, log: (l: string) => void, build: (tmp: string) => Promise<void>): Promise<string> {
  const bin = join(dir, name);
  const lock = `${dir}.lock`;
  for (const deadline = Date.now() + 30 * 60_000; Date.now() < deadline; ) {
    if (existsSync(bin)) return bin;
    mkdirSync(dirname(dir), { recursive: true });
    try {
      mkdirSync(lock);
    } catch {
      let owner = 0;
      let age: number;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8')) || 0;
      } catch {
        // Its builder has not written its pid yet, or the lock is gone already.
      }
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue;
      }
      const stale = owner ? !alive(owner) : age > 60_000;
      if (stale) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 2_000));
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      if (existsSync(bin)) return bin;
      await checkGo(kubernetesVersion);
      const started = Date.now();
      const tmp = `${dir}.partial-${process.pid}`;
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp, { recursive: true });
      await build(tmp);
      rmSync(dir, { recursive: true, force: true });
      renameSync(tmp, dir);
      log(`Built ${name} in ${Math.round((Date.now() - started) / 1000)} s.`);
      return bin;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  throw new BuildError(`waited 30 minutes for another process building ${bin}`, `remove ${lock} if no build is running`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function checkGo(kubernetesVersion: string): Promise<void> {
  const out = await run('go', ['version'], process.cwd()).catch(() => null);
  if (!out || out.code !== 0) {
    throw new BuildError('the Go toolchain was not found (`go version` failed)', 'install Go 1.26 or newer and put `go` on PATH, or point KUBEBUILDER_ASSETS at a folder with etcd, kube-apiserver, kube-controller-manager and kubectl');
  }
  const m = /go(\d+)\.(\d+)/.exec(out.output);
  if (m && (Number(m[1]) < 1 || (Number(m[1]) === 1 && Number(m[2]) < 26))) {
    throw new BuildError(`Kubernetes ${kubernetesVersion} (built by this project's Go 1.26 wrapper modules) needs Go 1.26 or newer; found ${m[0]}`, 'install a newer Go toolchain');
  }
}

async function goBuild(cwd: string, args: string[], what: string, log: (l: string) => void): Promise<void> {
  // GOGC=400 (unless set): the compiler and linker collect garbage a quarter as often. Measured
  // here, from an empty build cache, building client-go and k8s.io/apiserver/pkg/server: 553 s at
  // the default GOGC, 427 s at 400 (-23 %); the largest compile (k8s.io/api/core/v1) peaked at
  // 0.72 GB instead of 0.45 GB and the link of kube-apiserver at 2.5 GB instead of 2.4 GB. GOGC
  // changes no output, so built packages stay valid in Go's cache.
  const env = { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod -buildvcs=false', GOTOOLCHAIN: 'local', GOGC: process.env.GOGC ?? '400' };
  let packages = 0;
  let last = '';
  const began = Date.now();
  const timer = setInterval(() => {
    log(`  … ${what}: ${packages} packages compiled, ${Math.round((Date.now() - began) / 1000)} s${last ? ` (last: ${last})` : ''}`);
  }, 20_000);
  try {
    // -v prints each package as it is compiled: that is the progress a person sees.
    const res = await run('go', ['build', '-v', '-trimpath', ...args], cwd, env, (line) => {
      if (/^[\w.-]+(\/[\w.@~-]+)*$/.test(line)) {
        packages += 1;
        last = line;
      }
    });
    if (res.code !== 0) {
      const tail = res.output.split('\n').filter((l) => l && !/^[\w.-]+(\/[\w.@~-]+)*$/.test(l)).slice(-15).join('\n');
      const net = /proxy\.golang\.org|dial tcp|403 Forbidden|no such host|i\/o timeout/.test(tail);
      throw new BuildError(
        `building ${what} failed (go build exited ${res.code}):\n${tail}`,
        net
          ? 'the Go module proxy could not serve a module: check network access to it (GOPROXY), then run `npm run cluster:build` again'
          : `run \`cd ${cwd} && go build ./...\` to see the full error; \`go clean -cache\` helps after a toolchain change`,
      );
    }
    log(`  ${what}: done (${packages} packages, ${Math.round((Date.now() - began) / 1000)} s)`);
  } finally {
    clearInterval(timer);
  }
}

interface RunResult { code: number; output: string }

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, onLine?: (l: string) => void): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let partial = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      if (output.length > 1_000_000) output = output.slice(-500_000);
      if (!onLine) return;
      partial += text;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) onLine(l.trim());
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
