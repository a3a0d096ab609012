import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote, toCurl, toKubectl } from './copyAs';

// The shell itself checks the quoting: what `printf %s` receives must be the original string.
function roundTripThroughSh(s: string): string {
  return execFileSync('sh', ['-c', `printf %s ${shellQuote(s)}`], { encoding: 'utf8' });
}

describe('shellQuote', () => {
  it('survives a real shell with quotes, spaces, $ and backticks', () => {
    for (const s of [`it's`, 'a b', '$(rm -rf /)', '`id`', 'plain/path', '{"a":"b c"}', 'app in (a,b)']) expect(roundTripThroughSh(s)).toBe(s);
  });
});

describe('toCurl', () => {
  it('renders method, URL, headers and a body that the shell passes unchanged', () => {
    const body = `{"metadata":{"name":"it's"}}`;
    const cmd = toCurl(
      { method: 'POST', path: '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', headers: [['Content-Type', 'application/json']], body },
      { server: 'https://127.0.0.1:6443/' },
    );
    expect(cmd.split('\n')[0]).toBe(`curl -X POST 'https://127.0.0.1:6443/api/v1/namespaces/default/configmaps?fieldValidation=Strict' -H 'Content-Type: application/json' --data-binary @- <<'EOF'`);
    // Replace curl by cat: the heredoc must deliver the body byte for byte.
    const out = execFileSync('sh', ['-c', cmd.replace(/^curl .*--data-binary @- /, 'cat ')], { encoding: 'utf8' });
    expect(out).toBe(`${body}\n`);
  });

  it('streams watches with -N and leaves GET without -X', () => {
    expect(toCurl({ method: 'GET', path: '/api/v1/pods?watch=1', headers: [] }, { server: 'https://k' })).toBe(`curl -N 'https://k/api/v1/pods?watch=1'`);
  });
});

describe('toKubectl', () => {
  it('turns Impersonate-User, -Group (each) and -Uid into --as, --as-group and --as-uid, and notes -Extra-*', () => {
    const req = { method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', headers: [['Impersonate-User', 'explorer-viewer'], ['Impersonate-Group', 'a b'], ['impersonate-group', 'c'], ['Impersonate-Uid', '42'], ['Impersonate-Extra-Scopes', 'x']] as [string, string][], body: '{}' };
    const out = toKubectl(req, { context: 'local-admin' });
    expect(out.command.split('\n')[0]).toBe(`kubectl create --raw /apis/authentication.k8s.io/v1/selfsubjectreviews --context local-admin --as explorer-viewer --as-group 'a b' --as-group c --as-uid 42 -f - <<'EOF'`);
    expect(out.notes).toEqual(['kubectl has no flag for Impersonate-Extra-Scopes: set it as as-user-extra in a kubeconfig user.']);
  });

  it('uses the --raw verbs for GET, POST, PUT and DELETE', () => {
    expect(toKubectl({ method: 'GET', path: '/api/v1/namespaces', headers: [] }, { context: 'local-admin' }).command).toBe('kubectl get --raw /api/v1/namespaces --context local-admin');
    expect(toKubectl({ method: 'GET', path: '/api/v1/pods?limit=5&watch=1', headers: [] }).command).toBe(`kubectl get --raw '/api/v1/pods?limit=5&watch=1'`);
    expect(toKubectl({ method: 'POST', path: '/api/v1/namespaces', headers: [], body: '{}' }).command).toBe(`kubectl create --raw /api/v1/namespaces -f - <<'EOF'\n{}\nEOF`);
    expect(toKubectl({ method: 'PUT', path: '/api/v1/namespaces/x', headers: [], body: '{}' }).command).toMatch(/^kubectl replace --raw \/api\/v1\/namespaces\/x -f - <</);
    expect(toKubectl({ method: 'DELETE', path: '/api/v1/namespaces/x', headers: [] }).command).toBe('kubectl delete --raw /api/v1/namespaces/x');
  });

  it('notes an Accept header that kubectl --raw cannot send', () => {
    expect(toKubectl({ method: 'GET', path: '/api/v1/namespaces', headers: [['Accept', 'application/yaml']] }).notes[0]).toMatch(/application\/yaml/);
  });

  it('maps the patch content types to kubectl patch --type, and apply patches to apply --server-side', () => {
    const path = '/apis/apps/v1/namespaces/demo/deployments/web?fieldManager=me&dryRun=All';
    expect(toKubectl({ method: 'PATCH', path, headers: [['Content-Type', 'application/merge-patch+json']], body: '{"spec":{"replicas":2}}' }).command).toBe(
      `kubectl patch deployments.v1.apps web -n demo --type=merge -p '{"spec":{"replicas":2}}' --dry-run=server --field-manager=me`,
    );
    expect(toKubectl({ method: 'PATCH', path: '/api/v1/namespaces/demo/pods/p/status', headers: [['Content-Type', 'application/json-patch+json']], body: '[]' }).command).toBe(
      `kubectl patch pods p -n demo --subresource=status --type=json -p '[]'`,
    );
    expect(toKubectl({ method: 'PATCH', path: `${path}&force=true`, headers: [['Content-Type', 'application/apply-patch+yaml']], body: 'a: b' }).command).toBe(
      `kubectl apply --server-side --force-conflicts --dry-run=server --field-manager=me -n demo -f - <<'EOF'\na: b\nEOF`,
    );
  });

  it('names the kubeconfig when kubectl would not find the context by itself', () => {
    const opts = { context: 'local-admin', kubeconfig: '/home/me/.cluster dir/kubeconfig' };
    expect(toKubectl({ method: 'GET', path: '/api/v1/namespaces', headers: [] }, opts).command).toBe(`kubectl get --raw /api/v1/namespaces --kubeconfig '/home/me/.cluster dir/kubeconfig' --context local-admin`);
    expect(toKubectl({ method: 'PATCH', path: '/api/v1/namespaces/demo/configmaps/c', headers: [['Content-Type', 'application/merge-patch+json']], body: '{}' }, opts).command).toBe(
      `kubectl patch configmaps c -n demo --type=merge -p '{}' --kubeconfig '/home/me/.cluster dir/kubeconfig' --context local-admin`,
    );
  });
});

describe('copy as curl with an encoded body', () => {
  it('sends the exact Protobuf or CBOR bytes through printf octal escapes', () => {
    const cmd = toCurl(
      { method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: [['Content-Type', 'application/cbor']], body: '{"a":1}', bodyBytes: new Uint8Array([0xd9, 0xd9, 0xf7, 0xa1]) },
      { server: 'https://127.0.0.1:6443' },
    );
    expect(cmd).toBe("printf '\\331\\331\\367\\241' | curl -X POST https://127.0.0.1:6443/api/v1/namespaces/default/configmaps -H 'Content-Type: application/cbor' --data-binary @-");
  });
});
