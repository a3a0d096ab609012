// The ordering rule for resourceVersions (KEP-5504, Kubernetes 1.35): a well-formed
// resourceVersion is a decimal integer without leading zeros, so a shorter one is older and two of
// equal length compare as text. Nothing else may be concluded: not how many writes lie between two
// versions, not that a version a server has not yet handed out will ever exist. A value that is
// not well formed (an aggregated server's opaque string, "0", "") is not comparable at all.

/** Well formed per KEP-5504: digits only, no leading zero, not empty. "0" is not a version. */
export function isComparableResourceVersion(rv: string): boolean {
  return /^[1-9][0-9]*$/.test(rv);
}

/**
 * Compares two resourceVersions by the KEP-5504 rule: -1 when `a` is older, 0 when equal, 1 when
 * newer; undefined when either is not well formed (then only equality says anything).
 * Never parseInt: versions may outgrow a JavaScript number.
 */
export function compareResourceVersions(a: string, b: string): -1 | 0 | 1 | undefined {
  if (!isComparableResourceVersion(a) || !isComparableResourceVersion(b)) return undefined;
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}
