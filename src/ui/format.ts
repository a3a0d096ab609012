// Numbers as people read them, one formatter for the whole page.

/** Bytes in B, KiB or MiB (binary units, as Kubernetes quantities use). */
export function formatBytes(n: number | undefined): string {
  if (n === undefined) return '?';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}
