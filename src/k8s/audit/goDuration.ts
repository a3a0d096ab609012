// Go's time.Duration as text (Duration.String: "702.112634ms", "1.5s", "2m3.000000004s", "0s"):
// kube-apiserver writes every apiserver.latency.k8s.io/* audit annotation this way
// (endpoints/request/webhook_duration.go, `latency.String()`).

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Milliseconds of a Go duration string; undefined when it is not one (time.ParseDuration's grammar). */
export function parseGoDuration(text: string): number | undefined {
  let s = text.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (!s) return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < s.length) {
    const m = PART.exec(s);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return sign * total;
}
