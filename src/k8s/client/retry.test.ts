import { describe, expect, it } from 'vitest';
import { KubeApiError } from './kubeFetch';
import { retryDelayMs, shouldRetryRead } from './retry';

const err = (code: number, retryAfterSeconds?: number) => new KubeApiError({ kind: 'Status', apiVersion: 'v1', code }, code, false, retryAfterSeconds);

describe('read retries', () => {
  it('does not retry an answer (4xx), retries 429 Too Many Requests a few times, and 5xx and network failures twice', () => {
    expect(shouldRetryRead(0, err(404))).toBe(false);
    expect(shouldRetryRead(0, err(429, 1))).toBe(true);
    expect(shouldRetryRead(2, err(429, 1))).toBe(true);
    expect(shouldRetryRead(3, err(429, 1))).toBe(false);
    expect(shouldRetryRead(1, err(503))).toBe(true);
    expect(shouldRetryRead(2, new TypeError('Failed to fetch'))).toBe(false);
  });
  it('waits what Retry-After asked, never less', () => {
    expect(retryDelayMs(0, err(429, 3))).toBe(3000);
    expect(retryDelayMs(5, err(429, 1))).toBe(1000);
    expect(retryDelayMs(1, err(503))).toBe(2000);
  });
});
