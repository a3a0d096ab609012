// The user's own redaction patterns, kept in this browser between recordings.
const KEY = 'kube-api-explorer.redaction-patterns';

export function loadPatterns(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

export function savePatterns(patterns: string[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(patterns));
  } catch {
    // Storage full or refused (private mode): the patterns still apply to this save.
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
