// Go's text forms of time values, both ways: metav1.Time and MicroTime (RFC 3339), and
// time.Duration ("1h2m3.5s").
import { SchemaEncodeError } from './errors';

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

export function rfc3339(seconds: number, micros?: number): string {
  const d = new Date(seconds * 1000);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return micros === undefined ? `${base}Z` : `${base}.${pad(micros, 6)}Z`;
}

/** Go's time.Duration.String(): "1h2m3.5s", "150ms", "0s". */
export function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let u = Math.abs(ns);
  let out: string;
  if (u < 1e9) {
    const [unit, div] = u < 1e3 ? ['ns', 1] : u < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    out = `${trimFrac(u / div)}${unit}`;
  } else {
    const h = Math.floor(u / 3.6e12);
    u -= h * 3.6e12;
    const m = Math.floor(u / 6e10);
    u -= m * 6e10;
    out = `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${trimFrac(u / 1e9)}s`;
  }
  return neg ? `-${out}` : out;
}

function trimFrac(x: number): string {
  return String(Number(x.toFixed(9)));
}

export function parseRfc3339(s: string, path: string): { seconds: number; nanos: number } {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.exec(s);
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(ms)) throw new SchemaEncodeError(`${path}: "${s}" is not an RFC 3339 time`);
  const frac = m[2] ? m[2].slice(1).padEnd(9, '0').slice(0, 9) : '0';
  return { seconds: Math.floor(ms / 1000), nanos: Number(frac) };
}

/** Parses Go's duration text ("1h2m3.5s", "150ms") into nanoseconds. */
export function parseGoDuration(s: string, path = 'duration'): number {
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
  const unit: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };
  const neg = s.startsWith('-');
  const body = s.replace(/^[+-]/, '');
  let total = 0;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(body))) {
    total += Number(m[1]) * unit[m[2]!]!;
    consumed = re.lastIndex;
  }
  if (!body || consumed !== body.length) throw new SchemaEncodeError(`${path}: "${s}" is not a Go duration`);
  return Math.round(neg ? -total : total);
}
