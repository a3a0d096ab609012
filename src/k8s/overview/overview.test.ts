import { afterEach, describe, expect, it } from 'vitest';
import { KubeApiError } from '../client';
import { installRecordingHooks } from '../record/install';
import { startReplay, stopReplay } from '../record/replay';
import { readiness } from './overview';

installRecordingHooks();
afterEach(() => stopReplay());

describe('readiness', () => {
  it('is an error, not "not ready", when the answer is not the API server’s verdict (a replay without /readyz)', async () => {
    // A recording that never read /readyz: the replay answers 404 "not in the recording". Before,
    // the Welcome page read that as "✗ not ready: 0 of 0 checks passed".
    startReplay({ startedAt: 0, full: false, marks: [], servers: {}, exchanges: [] }, 'test');
    const r = readiness('c');
    await expect(r).rejects.toBeInstanceOf(KubeApiError);
    await expect(r).rejects.toMatchObject({ code: 404, message: expect.stringContaining('not in the recording') });
  });
});
