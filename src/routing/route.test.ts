import { describe, expect, it } from 'vitest';
import { allNamespacesAfter, contextNamespaceFor, inAppTarget, parseRoute, serializeRoute } from './route';

describe('route', () => {
  it('round-trips every known key and keeps unknown ones', () => {
    const search = '?context=local-admin&view=lists&namespace=kube-system&group=apps&version=v1&resource=deployments&name=x&limit=500';
    const r = parseRoute(search);
    expect(r).toMatchObject({ context: 'local-admin', view: 'lists', namespace: 'kube-system', group: 'apps', version: 'v1', resource: 'deployments', name: 'x', extra: { limit: '500' } });
    expect(parseRoute(serializeRoute(r))).toEqual(r);
  });

  it('keeps the core group as an empty string, distinct from no group', () => {
    expect(parseRoute('?group=&version=v1').group).toBe('');
    expect(parseRoute('?version=v1').group).toBeUndefined();
  });

  it('spells all namespaces namespace=*, distinct from a link that names no namespace', () => {
    expect(parseRoute('?context=c&namespace=*')).toMatchObject({ namespace: undefined, allNamespaces: true });
    expect(parseRoute('?context=c').allNamespaces).toBeUndefined();
    expect(serializeRoute(parseRoute('?context=c&view=lists&namespace=*'))).toBe('?context=c&view=lists&namespace=*');
    // A namespace named in the same change wins over the choice of all of them.
    expect(serializeRoute({ view: 'lists', namespace: 'ns', allNamespaces: true, extra: {} })).toBe('?view=lists&namespace=ns');
  });

  it('a link naming a context but no namespace opens in the context’s namespace, as kubectl does; all namespaces stay when asked for', () => {
    expect(contextNamespaceFor(parseRoute('?context=c&view=lists'), 'team-a')).toBe('team-a');
    expect(contextNamespaceFor(parseRoute('?context=c&view=lists&namespace=*'), 'team-a')).toBeUndefined();
    expect(contextNamespaceFor(parseRoute('?context=c&view=lists&namespace=b'), 'team-a')).toBeUndefined();
    // A context without a namespace in the kubeconfig: nothing to fill (the list is across all).
    expect(contextNamespaceFor(parseRoute('?context=c&view=lists'), undefined)).toBeUndefined();
    // No context yet: the Shell puts the current one into the URL first.
    expect(contextNamespaceFor(parseRoute('?view=lists'), 'team-a')).toBeUndefined();
  });

  it('a change that empties the namespace means all of them, unless it asks for the context’s own', () => {
    const base = parseRoute('?context=c&namespace=a');
    expect(allNamespacesAfter(base, { namespace: undefined })).toBe(true);
    expect(allNamespacesAfter(base, { namespace: 'b' })).toBe(false);
    expect(allNamespacesAfter(base, { context: 'd', namespace: undefined, allNamespaces: false })).toBe(false);
    expect(allNamespacesAfter(parseRoute('?context=c&namespace=*'), { view: 'watch' })).toBe(true);
  });

  it('falls back to discovery for an unknown view', () => {
    expect(parseRoute('?view=nope').view).toBe('welcome');
    expect(parseRoute('').view).toBe('welcome');
  });
});

describe('inAppTarget: which link clicks change the route in place', () => {
  const here = { origin: 'http://127.0.0.1:8001', pathname: '/' };
  const plain = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, defaultPrevented: false };
  const link = (href: string, more: Partial<{ target: string; hasDownload: boolean }> = {}) => ({ href, target: '', hasDownload: false, ...more });

  it('follows a plain click on a link to this page with a query in place', () => {
    expect(inAppTarget(plain, link('?view=lessons&lesson=watch'), here)).toBe('/?view=lessons&lesson=watch');
    expect(inAppTarget(plain, link('http://127.0.0.1:8001/?view=edit#step-2'), here)).toBe('/?view=edit#step-2');
  });

  it('leaves the browser what a link is for besides following it: new tabs, downloads, other pages, recordings', () => {
    expect(inAppTarget({ ...plain, button: 1 }, link('?view=watch'), here)).toBeUndefined();
    for (const k of ['metaKey', 'ctrlKey', 'shiftKey', 'altKey'] as const) expect(inAppTarget({ ...plain, [k]: true }, link('?view=watch'), here), k).toBeUndefined();
    expect(inAppTarget({ ...plain, defaultPrevented: true }, link('?view=watch'), here)).toBeUndefined();
    expect(inAppTarget(plain, link('?view=watch', { target: '_blank' }), here)).toBeUndefined();
    expect(inAppTarget(plain, link('blob:x', { hasDownload: true }), here)).toBeUndefined();
    expect(inAppTarget(plain, link('https://kubernetes.io/docs/'), here)).toBeUndefined();
    expect(inAppTarget(plain, link('/recordings/sample.har'), here)).toBeUndefined();
    expect(inAppTarget(plain, link('#content'), here)).toBeUndefined();
    expect(inAppTarget(plain, link('?replay=%2Frecordings%2Fsample.har&view=watch'), here)).toBeUndefined();
  });
});
