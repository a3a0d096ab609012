// When to try a failed read again, and after how long: one policy for queries and list pages.
// A 4xx from the API server is an answer, not a glitch, except 429 Too Many Requests (API Priority
// and Fairness rejecting for now), which asks to come back after Retry-After seconds.

/** Status code of a failure, if it has one (KubeApiError and the like). */
function httpStatusOf(err: unknown): number | undefined {
  if (err && typeof err === 'object' && 'httpStatus' in err) return Number((err as { httpStatus: unknown }).httpStatus);
  return undefined;
}

function retryAfterOf(err: unknown): number | undefined {
  if (err && typeof err === 'object' && 'retryAfterSeconds' in err) {
    const v = (err as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    return typeof v === 'number' && v >= 0 ? v : undefined;
  }
  return undefined;
}

/** Whether failure number `failures` (0-based) of a read is worth another attempt. */
export function shouldRetryRead(failures: number, err: unknown): boolean {
  const status = httpStatusOf(err);
  if (status === 429) return failures < 3;
  return failures < 2 && !(status !== undefined && status < 500);
}

/** How long to wait before the next attempt: never sooner than the server's Retry-After. */
export function retryDelayMs(failures: number, err: unknown): number {
  const backoff = Math.min(1000 * 2 ** failures, 30_000);
  const asked = retryAfterOf(err);
  return asked !== undefined ? Math.max(asked * 1000, 250) : backoff;
}
