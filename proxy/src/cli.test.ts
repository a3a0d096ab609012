import { describe, expect, it } from 'vitest';
import { browserCommand } from './browser';
import { parseCli, programName } from './cli';
import { withKubeconfigFile, withStartingPoint } from './server';

const run = (argv: string[], env: Record<string, string> = {}) => {
  const r = parseCli(argv, env);
  if (r.kind !== 'run') throw new Error(`expected run, got ${JSON.stringify(r)}`);
  return r.options;
};

describe('command-line flags', () => {
  it('defaults to port 7780 on 127.0.0.1, opening a browser, exec refused', () => {
    expect(run([])).toEqual({ port: 7780, address: '127.0.0.1', local: false, allowExec: false, openBrowser: true, dev: false, kubeconfig: undefined, context: undefined, namespace: undefined });
  });

  it('takes kubectl-style flags, -n for --namespace and --flag=value', () => {
    const o = run(['--kubeconfig=/k', '--context', 'c1', '-n', 'ns', '--port', '0', '--no-browser', '--allow-exec']);
    expect(o).toMatchObject({ kubeconfig: '/k', context: 'c1', namespace: 'ns', port: 0, openBrowser: false, allowExec: true });
  });

  it('reads PORT when --port is absent, and --port wins over PORT', () => {
    expect(run([], { PORT: '9000' }).port).toBe(9000);
    expect(run(['--port', '9001'], { PORT: '9000' }).port).toBe(9001);
  });

  it('refuses a port that is not a number from 0 to 65535', () => {
    for (const p of ['-1', '65536', 'abc', '80.5', '0x50']) expect(parseCli([`--port=${p}`])).toMatchObject({ kind: 'error', message: expect.stringContaining('invalid port') });
  });

  it('accepts only loopback for --address, and says why', () => {
    expect(run(['--address', 'localhost']).address).toBe('127.0.0.1');
    expect(run(['--address', '127.0.0.1']).address).toBe('127.0.0.1');
    for (const a of ['0.0.0.0', '192.168.1.2', '::', 'example.com']) {
      expect(parseCli(['--address', a])).toMatchObject({ kind: 'error', message: expect.stringContaining('only on loopback') });
    }
  });

  it('answers --help, -h, --version and -v without running', () => {
    expect(parseCli(['--help']).kind).toBe('help');
    expect(parseCli(['-h']).kind).toBe('help');
    expect(parseCli(['--version']).kind).toBe('version');
    expect(parseCli(['-v']).kind).toBe('version');
  });

  it('refuses unknown flags, positional arguments, empty values and --local with --kubeconfig', () => {
    expect(parseCli(['--kubecfg', 'x']).kind).toBe('error');
    expect(parseCli(['pods']).kind).toBe('error');
    expect(parseCli(['--context=']).kind).toBe('error');
    expect(parseCli(['--local', '--kubeconfig', '/k'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--local') });
    expect(run(['--local']).local).toBe(true);
  });
});

describe('--context and --namespace as the page reads them', () => {
  const list = {
    current: 'a',
    contexts: [
      { name: 'a', cluster: 'c', server: 's', user: 'u', namespace: 'default', current: true },
      { name: 'b', cluster: 'c', server: 's', user: 'u', namespace: 'team', current: false },
    ],
  };
  it('makes the given context current and gives it the given namespace', () => {
    const r = withStartingPoint(list, 'b', 'kube-system');
    expect(r.current).toBe('b');
    expect(r.contexts.map((c) => [c.name, c.current, c.namespace])).toEqual([['a', false, 'default'], ['b', true, 'kube-system']]);
  });
  it('names the kubeconfig file in every context only when one was given (or started) explicitly', () => {
    expect(withKubeconfigFile(list, '/tmp/kc').contexts.map((c) => c.kubeconfig)).toEqual(['/tmp/kc', '/tmp/kc']);
    expect(withKubeconfigFile(list, undefined)).toBe(list);
  });
  it('changes only the namespace of the current context when --context is absent', () => {
    expect(withStartingPoint(list, undefined, 'x').contexts.map((c) => c.namespace)).toEqual(['x', 'team']);
    expect(withStartingPoint(list)).toBe(list);
  });
});

describe('opening a browser', () => {
  it('uses the platform opener, and none on a Linux without a display', () => {
    expect(browserCommand('darwin', {})?.command).toBe('open');
    expect(browserCommand('linux', { PATH: '/nonexistent' })).toBeNull();
    expect(browserCommand('linux', { DISPLAY: ':0', PATH: '/nonexistent' })).toBeNull();
  });
});

describe('programName', () => {
  it('names the program as the user ran it', () => {
    expect(programName({ npm_lifecycle_event: 'start' }, '/x/proxy/start.mjs')).toBe('npm start --');
    // npx sets npm_lifecycle_event=npx: the bin's own name.
    expect(programName({ npm_lifecycle_event: 'npx' }, '/tmp/app/node_modules/.bin/kube-api-explorer')).toBe('kube-api-explorer');
    expect(programName({}, '/home/u/.local/bin/kubectl-api_explorer')).toBe('kubectl-api_explorer');
  });
});
