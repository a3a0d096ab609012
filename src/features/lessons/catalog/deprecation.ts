// Deprecated API versions: the `Warning` header on every request through one, the
// `apiserver_requested_deprecated_apis` gauge with its `removed_release` label, and a beta version
// that is off by default and served only with kube-apiserver's `--runtime-config` (the local
// control plane: `npm run cluster -- --runtime-config …`). Read-only.
import { parseWarningHeader } from '../../../codecs';
import { expectations, field, type KitExchange, type KitLesson } from '../kit';

const GAUGE = 'apiserver_requested_deprecated_apis';
/** A beta version that kube-apiserver 1.37 can still serve (off by default), deprecated in 1.37, to go in 1.40. */
export const DEPRECATED_BETA = { group: 'storagemigration.k8s.io', version: 'v1beta1', resource: 'storageversionmigrations', removed: '1.40' } as const;
const BETA_PATH = `/apis/${DEPRECATED_BETA.group}/${DEPRECATED_BETA.version}/${DEPRECATED_BETA.resource}`;

const warnings = (x: KitExchange) => parseWarningHeader(x.responseHeaders.warning).map((w) => `${w.code} ${w.text}`);

export interface GaugeLine {
  labels: Record<string, string>;
  value: string;
}

/** The gauge's samples from a /metrics text: one per group, version, resource, subresource and removed_release requested. */
export function deprecatedApiLines(metrics: unknown): GaugeLine[] {
  if (typeof metrics !== 'string') return [];
  const out: GaugeLine[] = [];
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(`${GAUGE}{`)) continue;
    const close = line.lastIndexOf('}');
    const labels: Record<string, string> = {};
    for (const m of line.slice(GAUGE.length + 1, close).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]!] = m[2]!;
    out.push({ labels, value: line.slice(close + 1).trim() });
  }
  return out;
}

const sample = (x: KitExchange, group: string, version: string, resource: string) =>
  deprecatedApiLines(x.response).find((l) => l.labels.group === group && l.labels.version === version && l.labels.resource === resource);
/** Served versions of a group, from its discovery document (`GET /apis/<group>`); empty when the group is not served. */
const servedVersions = (x: KitExchange) => (x.status === 200 ? ((field(x.response, 'versions') as { version?: string }[] | undefined) ?? []).map((v) => v.version ?? '') : []);

/** Keeps the gauge's lines; the rest of /metrics (megabytes) stays out of the page. */
const showMetrics = (x: KitExchange) => (x.path === '/metrics' ? { [GAUGE]: deprecatedApiLines(x.response).map((l) => `${JSON.stringify(l.labels)} ${l.value}`) } : undefined);
const showWarning = (x: KitExchange) => showMetrics(x) ?? { status: x.status, warning: x.responseHeaders.warning ?? '(none)', ...(x.status >= 400 ? { body: x.response } : { versions: field(x.response, 'versions') }) };

export const deprecatedApis: KitLesson = {
  id: 'deprecated-apis',
  topic: 'deprecated',
  title: 'Deprecated APIs: the Warning header, the requested-deprecated-APIs metric and --runtime-config',
  scope: 'read',
  paragraphs: [
    'When a request goes through a deprecated API version (or a deprecated kind), kube-apiserver answers as usual and adds a `Warning` header (code 299) saying what is deprecated, since which release, when it will stop being served if that is planned, and what to use instead. It also sets the gauge `apiserver_requested_deprecated_apis` to 1 for that group, version and resource, with a `removed_release` label: the release that will stop serving it, or empty when none is planned. An admin reads it from `/metrics` to find out whether anyone still uses an API before an upgrade removes it.',
    'Beta versions are off by default and are turned on, or any version off, with kube-apiserver\'s `--runtime-config`. The local control plane passes it through: `npm run cluster -- --runtime-config storagemigration.k8s.io/v1beta1=true` serves that deprecated beta version (step 3 then shows its warning and `removed_release`), and `npm run cluster -- --runtime-config autoscaling/v1=false` starts a cluster without `autoscaling/v1` (404, and discovery lists only `autoscaling/v2`) to try a client against it (background here: `src/features/lessons/runtimeConfig.server.test.ts` checks both on 1.37.1).',
  ],
  needs: [
    { verb: 'list', resource: 'endpoints' },
    { verb: 'list', group: 'discovery.k8s.io', resource: 'endpointslices' },
  ],
  steps: [
    {
      id: 'warning',
      title: 'A deprecated kind in a served version',
      text: 'List Endpoints (`v1`, core group) and EndpointSlices (`discovery.k8s.io/v1`), one item each.',
      lookFor: 'Both 200. The Endpoints answer carries `warning: 299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"`; the EndpointSlice answer has no warning.',
      run: async (c) => [await c.send('GET', '/api/v1/endpoints?limit=1'), await c.send('GET', '/apis/discovery.k8s.io/v1/endpointslices?limit=1')],
      show: showWarning,
      check: ([eps, slices]) => {
        const { want, result } = expectations();
        const w = warnings(eps!).join(' | ');
        want(eps!.status === 200 && w.includes('299 v1 Endpoints is deprecated in v1.33+') && w.includes('use discovery.k8s.io/v1 EndpointSlice'), `Endpoints: HTTP ${eps!.status}, warning ${w || '(none)'}`);
        want(slices!.status === 200 && warnings(slices!).length === 0, `EndpointSlices: HTTP ${slices!.status}, warning ${warnings(slices!).join(' | ') || '(none)'}`);
        return result;
      },
      view: () => ({ label: 'Send it in the console', to: { view: 'console', extra: { m: 'GET', p: '/api/v1/endpoints', 'q.limit': '1' } } }),
    },
    {
      id: 'metric',
      title: 'What the server remembers: apiserver_requested_deprecated_apis',
      text: `GET \`/metrics\` (the local admin may read it) and keep the lines of \`${GAUGE}\`.`,
      lookFor: 'A line for `group=""`, `version="v1"`, `resource="endpoints"` with value 1 and `removed_release=""`: Endpoints are deprecated, but no release is set to remove them. No line for EndpointSlices.',
      run: async (c) => [await c.send('GET', '/metrics', { accept: 'text/plain' })],
      show: showMetrics,
      check: ([m]) => {
        const { want, result } = expectations();
        want(m!.status === 200, `/metrics: HTTP ${m!.status} (reading it needs get on the non-resource URL /metrics)`);
        const eps = sample(m!, '', 'v1', 'endpoints');
        want(eps?.value === '1' && eps.labels.removed_release === '', `endpoints: ${eps ? `${JSON.stringify(eps.labels)} ${eps.value}` : 'no line'}`);
        want(!sample(m!, 'discovery.k8s.io', 'v1', 'endpointslices'), 'a line for EndpointSlices');
        return result;
      },
    },
    {
      id: 'beta',
      title: `A deprecated beta version: ${DEPRECATED_BETA.group}/${DEPRECATED_BETA.version}`,
      text: `Read the group's discovery document \`/apis/${DEPRECATED_BETA.group}\`, list through \`${DEPRECATED_BETA.version}\`, and read \`/metrics\` again.`,
      lookFor: `On a cluster started as it ships, ${DEPRECATED_BETA.version} is not among the served versions and its path answers 404: beta versions are off by default. Started with \`--runtime-config ${DEPRECATED_BETA.group}/${DEPRECATED_BETA.version}=true\` (1.37), the list is 200 with a warning that it is "deprecated in v1.37+, unavailable in v1.40+" and names \`${DEPRECATED_BETA.group}/v1\` as the replacement, and the gauge gets a line with \`removed_release="${DEPRECATED_BETA.removed}"\`. The step says which of the two this server did.`,
      run: async (c) => [await c.send('GET', `/apis/${DEPRECATED_BETA.group}`), await c.send('GET', BETA_PATH), await c.send('GET', '/metrics', { accept: 'text/plain' })],
      show: showWarning,
      check: ([group, list, m]) => {
        const { want, result } = expectations();
        const served = servedVersions(group!).includes(DEPRECATED_BETA.version);
        if (!served) {
          want(list!.status === 404, `${DEPRECATED_BETA.version} is not in discovery, yet its list answered HTTP ${list!.status}`);
          want(!sample(m!, DEPRECATED_BETA.group, DEPRECATED_BETA.version, DEPRECATED_BETA.resource), 'a gauge line for a version nobody could request');
          return result;
        }
        const w = warnings(list!).join(' | ');
        want(list!.status === 200 && w.includes(`299 ${DEPRECATED_BETA.group}/${DEPRECATED_BETA.version} StorageVersionMigration is deprecated in v1.37+, unavailable in v1.40+`) && w.includes(`use ${DEPRECATED_BETA.group}/v1 StorageVersionMigration`), `list: HTTP ${list!.status}, warning ${w || '(none)'}`);
        const line = sample(m!, DEPRECATED_BETA.group, DEPRECATED_BETA.version, DEPRECATED_BETA.resource);
        want(line?.value === '1' && line.labels.removed_release === DEPRECATED_BETA.removed, `gauge: ${line ? `${JSON.stringify(line.labels)} ${line.value}` : 'no line'}`);
        return result;
      },
    },
  ],
};
