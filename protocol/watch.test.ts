import { describe, expect, it } from 'vitest';
import { isWatchRequest, queryFlag } from './watch';

// Each row is what kube-apiserver's RequestInfo makes of the request (requestinfo.go), with the
// boolean query rule of apimachinery's Convert_Slice_string_To_bool.
describe('isWatchRequest, as kube-apiserver decides the verb', () => {
  it.each([
    // The watch parameter on a collection.
    ['/api/v1/namespaces/default/configmaps?watch=1', true],
    ['/api/v1/namespaces/default/configmaps?watch=true', true],
    ['/apis/apps/v1/deployments?watch=TRUE', true],
    ['/api/v1/configmaps?watch=', true], // an empty value is true
    ['/api/v1/configmaps?watch', true], // so is a bare name
    ['/api/v1/configmaps?watch=yes', true], // anything but 0 and false
    ['/api/v1/configmaps?watch=false', false],
    ['/api/v1/configmaps?watch=False', false], // false in any case
    ['/api/v1/configmaps?watch=0', false],
    ['/api/v1/configmaps?watch=0&watch=1', false], // the first value counts
    ['/api/v1/configmaps?watch=1&watch=0', true],
    ['/api/v1/configmaps?wat%63h=1', true], // query names are decoded
    ['/api/v1/configmaps?limit=500', false],
    ['/api/v1/configmaps?allowWatchBookmarks=true', false],
    ['/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan', true], // a streaming list
    // The deprecated /watch/ paths: a watch whatever the query says.
    ['/api/v1/watch/namespaces/default/pods', true],
    ['/apis/apps/v1/watch/deployments', true],
    ['/api/v1/watch/namespaces/default/configmaps/one', true],
    ['/api/v1/watch/configmaps?watch=false', true],
    ['/api/v1/%77atch/configmaps', true], // paths are read decoded
    ['/api/v1/watch', false], // the special verb needs something to watch
    // What is not a watch.
    ['/api/v1/namespaces/default/configmaps/watch', false], // an object named watch
    ['/api/v1/namespaces/watch/configmaps', false], // a namespace named watch
    ['/api/v1/namespaces/default/configmaps/one?watch=1', false], // a named GET ignores the parameter
    ['/api/v1/namespaces/default?watch=1', false], // names the namespace
    ['/api/v1/namespaces/default/status?watch=1', false],
    ['/api/v1/namespaces?watch=1', true], // the namespaces collection
    ['/apis/apps?watch=1', false], // discovery, not a resource path
    ['/apis?watch=1', false],
    ['/version?watch=1', false],
    ['/healthz/watch', false],
  ])('GET %s → %s', (path, watch) => {
    expect(isWatchRequest(path)).toBe(watch);
  });

  it('counts the parameter only on a GET or HEAD (a POST is a create)', () => {
    expect(isWatchRequest('/api/v1/namespaces/default/configmaps?watch=1', 'HEAD')).toBe(true);
    expect(isWatchRequest('/api/v1/namespaces/default/configmaps?watch=1', 'POST')).toBe(false);
    expect(isWatchRequest('/api/v1/namespaces/default/configmaps?watch=1', 'DELETE')).toBe(false);
  });
});

describe('queryFlag (Convert_Slice_string_To_bool)', () => {
  it.each([
    ['follow=true', true],
    ['follow=', true],
    ['follow', true],
    ['follow=FALSE', false],
    ['follow=0', false],
    ['', false],
    ['followers=1', false],
  ])('%j → %s', (query, value) => {
    expect(queryFlag(query, 'follow')).toBe(value);
  });
});
