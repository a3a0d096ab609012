import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromRecordingHar } from './har';
import { landingOf } from './landing';

describe('landingOf', () => {
  it('lands the sample recording on the list it recorded, with its selector', () => {
    const rec = fromRecordingHar(JSON.parse(readFileSync('public/recordings/sample.har', 'utf8')));
    expect(landingOf(rec)).toEqual({ context: 'local-admin', resource: { group: '', version: 'v1', resource: 'configmaps', namespace: 'recording-sample', name: undefined, subresource: undefined }, labelSelector: 'e2e=rec' });
  });

  it('has no landing for a recording without a list', () => {
    expect(landingOf({ exchanges: [], marks: [], servers: {}, startedAt: 0, full: false })).toBeUndefined();
  });
});
