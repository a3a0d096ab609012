// A V8 CPU profile (CDP Profiler.stop) summarised as self time by function, for the benches' profiling options.
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url?: string; lineNumber?: number }; hitCount?: number }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time (ms) per function of a CPU profile, each sample weighing its time delta. */
export function selfTimes(p: CpuProfile): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  (p.samples ?? []).forEach((id, i) => {
    const dt = (p.timeDeltas?.[i] ?? 0) / 1000;
    const f = byId.get(id)?.callFrame;
    // Trace samples may come without a url or line (native and V8-internal frames).
    const name = f ? `${f.functionName || '(anonymous)'} ${f.url?.split('/').pop() ?? ''}${f.lineNumber !== undefined ? `:${f.lineNumber + 1}` : ''}` : '?';
    self.set(name, (self.get(name) ?? 0) + dt);
  });
  return self;
}

/** Self time per function of a CPU profile (page load to caught up), the top ones as lines. */
export function summariseProfile(p: CpuProfile, title = 'main-thread profile'): string {
  const self = selfTimes(p);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return [`${title}: ${total.toFixed(0)} ms sampled; self time by function:`, ...top.map(([n, ms]) => `  ${ms.toFixed(0).padStart(6)} ms  ${n}`)].join('\n');
}
