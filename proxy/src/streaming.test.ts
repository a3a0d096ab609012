// Which requests the proxy asks for an uncompressed response (pure).
import { describe, expect, it } from 'vitest';
import { isStreamingRequest } from './forward';

describe('isStreamingRequest', () => {
  it.each([
    ['/api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true', true],
    ['/api/v1/pods?watch=true', true],
    ['/apis/apps/v1/watch/namespaces/default/deployments', true],
    ['/api/v1/watch/pods', true],
    ['/api/v1/pods?watch=false', false],
    ['/api/v1/pods?watch=0', false],
    ['/api/v1/pods', false],
    ['/api/v1/namespaces/watch/pods', false],
  ])('%s → %s', (path, streaming) => {
    expect(isStreamingRequest(path)).toBe(streaming);
  });
});
