// Pure formatting for Table cells and sizes; no React, so it is cheap per visible row and testable.

/** Like kubectl's HumanDuration: two units while they matter, one after. */
export function humanAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 ? `${m}m${s % 60}s` : `${m}m`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 8) return h % 24 ? `${d}d${h % 24}h` : `${d}d`;
  if (d < 730) return `${d}d`;
  const y = Math.floor(d / 365);
  return d % 365 ? `${y}y${d % 365}d` : `${y}y`;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

export interface CellText {
  text: string;
  title?: string;
}

/**
 * A cell as text, by its column's type. For `date` columns the kube-apiserver sends an age it has
 * already rendered ("5m", for built-in Age columns and for custom resources' date printer columns
 * alike): the exact time is not in a Table with includeObject=None, so the hover says what the text
 * is. A cell that is a timestamp (a server that sends one) is shown as an age, the time on hover.
 */
export function cellText(value: unknown, type: string, now: number): CellText {
  if (value === null || value === undefined) return { text: '' };
  if (type === 'date' || (typeof value === 'string' && RFC3339.test(value))) {
    if (typeof value === 'string' && RFC3339.test(value)) {
      const t = Date.parse(value);
      if (!Number.isNaN(t)) return { text: humanAge(now - t), title: `${value} (${new Date(t).toLocaleString()})` };
    }
    if (type === 'date') return { text: String(value), title: 'Age as the server rendered it when it answered; the Table carries no timestamp. Open the object for metadata.creationTimestamp.' };
  }
  if (typeof value === 'object') return { text: JSON.stringify(value) };
  return { text: String(value) };
}

export { formatBytes } from '../../ui/format';
