// "Copy as code": the console's request as a program for the three client libraries people use,
// each sending exactly this method, path, query, headers and body through the library's own raw
// request layer (not a typed client, which would rebuild the request its own way), with the
// library's kubeconfig loading and credentials. copyAsCode.server.test.ts builds and runs each one
// against the local control plane.
import { queryOf, type ExchangeRequest } from '../../k8s/client';
import { baseType } from '../../codecs';

export interface CodeOptions {
  context?: string;
  /** The kubeconfig file, when the library would not find it by itself (KUBECONFIG, ~/.kube/config). */
  kubeconfig?: string;
}

function split(req: ExchangeRequest): { path: string; query: [string, string][] } {
  const i = req.path.indexOf('?');
  if (i < 0) return { path: req.path, query: [] };
  return { path: req.path.slice(0, i), query: [...new URLSearchParams(req.path.slice(i + 1))] };
}

const isWatch = (req: ExchangeRequest) => ['1', 'true'].includes(queryOf(req.path).watch ?? '');
const hasBody = (req: ExchangeRequest) => req.method !== 'GET' && ((req.body !== undefined && req.body !== '') || req.bodyBytes !== undefined);

/** A Go interpreted string literal: printable ASCII kept, everything else as \x escapes of its UTF-8 bytes. */
export function goString(s: string | Uint8Array): string {
  const bytes = typeof s === 'string' ? new TextEncoder().encode(s) : s;
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22) out += '\\"';
    else if (b === 0x5c) out += '\\\\';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x09) out += '\\t';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `${out}"`;
}

/** A Go literal for a body: a raw string when it can be one (reads like the body), else goString. */
function goBody(req: ExchangeRequest): string {
  if (req.bodyBytes) return `[]byte(${goString(req.bodyBytes)})`;
  const b = req.body ?? '';
  return /^[^`\r\u0000]*$/.test(b) ? `[]byte(\`${b}\`)` : `[]byte(${goString(b)})`;
}

export function toClientGo(req: ExchangeRequest, opts: CodeOptions = {}): string {
  const { path, query } = split(req);
  const chain = [`Verb(${goString(req.method)})`, `AbsPath(${goString(path)})`];
  for (const [k, v] of query) chain.push(`Param(${goString(k)}, ${goString(v)})`);
  for (const [k, v] of req.headers) chain.push(`SetHeader(${goString(k)}, ${goString(v)})`);
  if (hasBody(req)) chain.push(`Body(${goBody(req)})`);
  const rules = opts.kubeconfig ? `&clientcmd.ClientConfigLoadingRules{ExplicitPath: ${goString(opts.kubeconfig)}}` : 'clientcmd.NewDefaultClientConfigLoadingRules()';
  const request = `clientset.CoreV1().RESTClient().\n\t\t${chain.join('.\n\t\t')}`;
  const send = isWatch(req)
    ? `\tstream, err := ${request}.\n\t\tStream(context.Background())\n\tif err != nil {\n\t\tfmt.Fprintln(os.Stderr, err)\n\t\tos.Exit(1)\n\t}\n\tdefer stream.Close()\n\t// A watch: one JSON event per line until the server ends it.\n\t_, _ = io.Copy(os.Stdout, stream)\n`
    : `\tresult := ${request}.\n\t\tDo(context.Background())\n\tvar code int\n\tresult.StatusCode(&code)\n\t// Raw returns the body of an error Status too, beside the error.\n\tbody, _ := result.Raw()\n\tfmt.Println(code)\n\tos.Stdout.Write(body)\n`;
  return `// The same request with client-go (go get k8s.io/client-go), through its REST client: the
// method, path, query, headers and body exactly as the explorer sent them.
package main

import (
	"context"
	"fmt"
${isWatch(req) ? '\t"io"\n' : ''}\t"os"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		${rules},
		&clientcmd.ConfigOverrides{CurrentContext: ${goString(opts.context ?? '')}},
	).ClientConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	clientset, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
${send}}
`;
}

/** A Python (and JavaScript) string literal: JSON's string syntax is valid in both. */
const pyString = (s: string) => JSON.stringify(s);

function pyBody(req: ExchangeRequest): { setup: string[]; arg: string } {
  if (!hasBody(req)) return { setup: [], arg: 'None' };
  if (req.bodyBytes) return { setup: [`body = bytes([${Array.from(req.bodyBytes).join(', ')}])`], arg: 'body' };
  const type = baseType(req.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? 'application/json');
  // The client's REST layer (kubernetes 37) runs JSON bodies through json.dumps: it gets the parsed
  // value. Any other type (YAML, apply) goes as the text given.
  if (/json/i.test(type)) return { setup: [`body = json.loads(${pyString(req.body!)})`], arg: 'body' };
  return { setup: [`body = ${pyString(req.body!)}`], arg: 'body' };
}

export function toPython(req: ExchangeRequest, opts: CodeOptions = {}): string {
  const { path, query } = split(req);
  const headers = Object.fromEntries(req.headers);
  const body = pyBody(req);
  const load = [opts.kubeconfig ? `config_file=${pyString(opts.kubeconfig)}` : '', opts.context ? `context=${pyString(opts.context)}` : ''].filter(Boolean).join(', ');
  const lines = [
    '# The same request with the official Python client (pip install kubernetes, 37 or later), through',
    '# ApiClient.param_serialize and call_api: the method, path, query, headers and body as the explorer sent them.',
    'import json',
    'import sys',
    '',
    'from kubernetes import client, config',
    '',
    `config.load_kube_config(${load})`,
    'api = client.ApiClient()',
    ...body.setup,
    'method, url, headers, body, _ = api.param_serialize(',
    `    ${pyString(req.method)}, ${pyString(path)},`,
    `    query_params=[${query.map(([k, v]) => `(${pyString(k)}, ${pyString(v)})`).join(', ')}],`,
    `    header_params={${Object.entries(headers).map(([k, v]) => `${pyString(k)}: ${pyString(v)}`).join(', ')}},`,
    `    body=${body.arg},`,
    '    auth_settings=["BearerToken"],',
    ')',
    'response = api.call_api(method, url, header_params=headers, body=body)',
    'print(response.status)',
    ...(isWatch(req)
      ? ['for chunk in response.response.stream():  # a watch: one JSON event per line until the server ends it', '    sys.stdout.write(chunk.decode())']
      : ['response.read()', 'sys.stdout.write(response.data.decode())']),
    '',
  ];
  return lines.filter((l) => (l === 'import json' ? body.setup.some((x) => x.includes('json.')) : true)).join('\n');
}

export function toClientNode(req: ExchangeRequest, opts: CodeOptions = {}): string {
  const headers = Object.fromEntries(req.headers);
  const body = !hasBody(req) ? undefined : req.bodyBytes ? `Buffer.from([${Array.from(req.bodyBytes).join(', ')}])` : pyString(req.body!);
  return `// The same request with @kubernetes/client-node (npm install @kubernetes/client-node), as an ES
// module: the library loads the kubeconfig and puts its credentials on a node:https request that
// carries the method, path, query, headers and body as the explorer sent them.
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

const kc = new KubeConfig();
${opts.kubeconfig ? `kc.loadFromFile(${pyString(opts.kubeconfig)});` : 'kc.loadFromDefault();'}
${opts.context ? `kc.setCurrentContext(${pyString(opts.context)});\n` : ''}const url = new URL(kc.getCurrentCluster().server.replace(/\\/$/, '') + ${pyString(req.path)});
const options = { method: ${pyString(req.method)}, headers: ${JSON.stringify(headers)} };
await kc.applyToHTTPSOptions(options);
const request = https.request(url, options, (response) => {
  console.log(response.statusCode);
  response.on('data', (chunk) => process.stdout.write(chunk));
});
request.on('error', (e) => {
  console.error(e.message);
  process.exitCode = 1;
});
request.end(${body ?? ''});
`;
}
