import { afterEach, describe, expect, it } from 'vitest';
import { installRecordingHooks } from '../record/install';
import { startReplay, stopReplay } from '../record/replay';
import { readReadyz } from './readyz';

installRecordingHooks();
afterEach(() => stopReplay());

describe('readReadyz', () => {
  it('is no verdict, not "not ready", when the answer is not the API server’s (a replay without /readyz)', async () => {
    // A recording that never read /readyz: the replay answers 404 "not in the recording". Before,
    // the Welcome page read that as "✗ not ready: 0 of 0 checks passed".
    startReplay({ startedAt: 0, full: false, marks: [], servers: {}, exchanges: [] }, 'test');
    const r = await readReadyz('c', new AbortController().signal);
    expect(r).toMatchObject({ status: 404, ready: null, message: expect.stringContaining('not in the recording') });
  });
});
