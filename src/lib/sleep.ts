// Waiting, the one copy. Production waits are between attempts (a watch's backoff, a lesson's
// poll of what a controller does); none asserts that something did not happen.

/** Resolves after `ms`, or at once when `signal` aborts (it never rejects: the caller checks the signal). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
