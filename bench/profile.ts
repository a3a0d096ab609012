// A V8 CPU profile (CDP Profiler.stop) summarised as self time by function, for the benches' profiling options.
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time per function of a CPU profile (page load to caught up), the top ones as lines. */
export function summariseProfile(p: CpuProfile, title = 'main-thread profile'): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  (p.samples ?? []).forEach((id, i) => {
    const dt = (p.timeDeltas?.[i] ?? 0) / 1000;
    const f = byId.get(id)?.callFrame;
    const name = f ? `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}` : '?';
    self.set(name, (self.get(name) ?? 0) + dt);
    total += dt;
  });
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return [`${title}: ${total.toFixed(0)} ms sampled; self time by function:`, ...top.map(([n, ms]) => `  ${ms.toFixed(0).padStart(6)} ms  ${n}`)].join('\n');
}
