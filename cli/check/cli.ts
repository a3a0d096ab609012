// `kubectl api-explorer check` / `npm start -- check` / `npx kube-api-explorer check`: its flags.
// Pure: argv in, a decision out; main.ts does the I/O.
import { parseArgs } from 'node:util';
import { BOOKMARK_WAIT_SECONDS } from '../../src/k8s/serving';

export const OUTPUTS = ['text', 'json', 'junit', 'html'] as const;
export type Output = (typeof OUTPUTS)[number];

export interface CheckOptions {
  kubeconfig?: string;
  context?: string;
  /** Where namespaced collections are read (default: the context's namespace). */
  namespace?: string;
  group?: string;
  /** A resource's plural name, `plural.group`, or its kind. */
  resource?: string;
  writes: boolean;
  output: Output;
  out?: string;
  compare?: string;
  /** Resources probed at once. */
  parallel: number;
  /** How long each served watch waits for a periodic bookmark; 0 skips the check. */
  bookmarkWait: number;
}

export type CheckCli = { kind: 'run'; options: CheckOptions } | { kind: 'help' } | { kind: 'error'; message: string };

export function checkUsage(program: string): string {
  return `Checks what an API server really serves, resource by resource, the way client-go's informers use it,
and names the resources on which an informer would break. No browser: for terminals and CI.

Usage:
  ${program} check [flags]

Per resource: List, Table, Protobuf, CBOR, metadata only (a list, one object, a watch), label and
field selectors, chunking (a continue token followed), an expired continue token (410), watch,
bookmarks, a watch from a compacted resourceVersion (410), a streaming list ending with the
k8s.io/initial-events-end bookmark. With --writes, also a dry-run create and server-side apply,
and, for namespaced resources: a create, JSON, merge and strategic merge patches, an update with
a stale resourceVersion (409), an apply of a field another manager owns (409), /status and
/scale where offered. Each answer is yes, no (with the server's answer) or unknown (with why).

Flags:
      --kubeconfig FILE     kubeconfig to use (default: KUBECONFIG, else ~/.kube/config)
      --context NAME        context to check (default: the current-context)
  -n, --namespace NAME      namespace whose collections are read (default: the context's)
      --group NAME          only this API group ("core" for the core group)
      --resource NAME       only this resource (plural, plural.group, or kind)
      --writes              also send the checks that write; OFF by default. They go to a scratch
                            namespace created for the check and deleted after it (cluster-scoped
                            resources get dry runs only)
  -o, --output FORMAT       text (default), json, junit or html
      --out FILE            write the report to FILE instead of standard output
      --compare CONTEXT     run the same checks on a second context and list what differs
      --parallel N          resources checked at once (default 8)
      --bookmark-wait S     seconds each watch waits for a periodic bookmark, all at once (default
                            65: kube-apiserver sends one about every minute); 0 skips the check
  -h, --help                print this help and exit

Exit status: 0 when nothing would break a client-go informer, 1 when something would, 2 on a
usage or connection error.`;
}

export function parseCheckCli(argv: string[]): CheckCli {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        namespace: { type: 'string', short: 'n' },
        group: { type: 'string' },
        resource: { type: 'string' },
        writes: { type: 'boolean', default: false },
        output: { type: 'string', short: 'o', default: 'text' },
        out: { type: 'string' },
        compare: { type: 'string' },
        parallel: { type: 'string', default: '8' },
        'bookmark-wait': { type: 'string', default: String(BOOKMARK_WAIT_SECONDS) },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    return { kind: 'error', message: (e as Error).message };
  }
  if (values.help) return { kind: 'help' };
  if (!(OUTPUTS as readonly string[]).includes(values.output)) return { kind: 'error', message: `--output ${JSON.stringify(values.output)}: one of ${OUTPUTS.join(', ')}` };
  for (const key of ['kubeconfig', 'context', 'namespace', 'resource', 'out', 'compare'] as const) {
    if (values[key] === '') return { kind: 'error', message: `--${key} needs a value` };
  }
  if (!/^\d{1,3}$/.test(values.parallel) || Number(values.parallel) < 1) return { kind: 'error', message: `--parallel ${JSON.stringify(values.parallel)}: a number from 1 to 999` };
  if (!/^\d{1,4}$/.test(values['bookmark-wait'])) return { kind: 'error', message: `--bookmark-wait ${JSON.stringify(values['bookmark-wait'])}: seconds, 0 to skip` };
  return {
    kind: 'run',
    options: {
      kubeconfig: values.kubeconfig,
      context: values.context,
      namespace: values.namespace,
      group: values.group === 'core' ? '' : values.group,
      resource: values.resource,
      writes: values.writes,
      output: values.output as Output,
      out: values.out,
      compare: values.compare,
      parallel: Number(values.parallel),
      bookmarkWait: Number(values['bookmark-wait']),
    },
  };
}
