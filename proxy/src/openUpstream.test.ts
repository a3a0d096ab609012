import { describe, expect, it } from 'vitest';
import { isLongRunning } from './openUpstream';

describe('isLongRunning (which requests get no response timeout)', () => {
  it.each([
    ['a watch with watch=1', '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=5'],
    ['a watch with watch=true', '/apis/apps/v1/deployments?watch=true'],
    ['a streaming list', '/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan'],
    ['the legacy /watch/ path of the core group', '/api/v1/watch/namespaces/default/pods'],
    ['the legacy /watch/ path of a named group', '/apis/apps/v1/watch/deployments'],
    ['followed pod logs', '/api/v1/namespaces/default/pods/web/log?follow=true'],
    ['followed pod logs with an empty follow= (true, as kube-apiserver reads it)', '/api/v1/namespaces/default/pods/web/log?follow='],
  ])('treats %s as long-running', (_name, path) => {
    expect(isLongRunning(path)).toBe(true);
  });

  it.each([
    ['a list', '/api/v1/namespaces/default/configmaps?limit=500'],
    ['watch=false', '/api/v1/configmaps?watch=false'],
    ['watch=0', '/api/v1/configmaps?watch=0'],
    ['an object named watch', '/api/v1/namespaces/default/configmaps/watch'],
    ['a namespace named watch', '/api/v1/namespaces/watch/configmaps'],
    ['logs without follow', '/api/v1/namespaces/default/pods/web/log'],
  ])('gives %s a response timeout', (_name, path) => {
    expect(isLongRunning(path)).toBe(false);
  });
});
