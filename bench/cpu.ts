// CPU time of processes from /proc, for the benches' per-process figures (Linux only).
import { readdirSync, readFileSync } from 'node:fs';

/** User + system CPU (ms) in the text of /proc/PID/stat (fields 14 and 15, in clock ticks of 10 ms). */
function statCpuMs(stat: string): number {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

/** CPU time (user + system, ms) a process has used so far; undefined where /proc is not there. */
export function cpuMs(pid: number | undefined): number | undefined {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** CPU time (user + system, ms) used so far by each program on the machine (by /proc/PID/comm), summed over its processes. */
export function cpuByProgram(): Map<string, number> {
  const out = new Map<string, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      let name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // Chromium's processes by role: the browser, the renderer (the page and its worker), the GPU
      // process (compositing), utilities (the network service).
      if (name.startsWith('chrom')) name = `chromium ${/--type=([\w-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser'}`;
      out.set(name, (out.get(name) ?? 0) + statCpuMs(stat));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Peak resident set size (VmHWM, MiB) of a process so far; undefined where /proc is not there. */
export function peakRssMiB(pid: number | undefined): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resident memory (MiB, current VmRSS and peak VmHWM, summed) of the Chromium renderers this
 * process started: the descendants of `root` whose command line says --type=renderer. The page's
 * main thread and its workers live in the renderer, so this covers the watch worker's heap too,
 * which a CDP heap reading of the page leaves out.
 */
export function rendererRssMiB(root: number = process.pid): { rss: number; peak: number } {
  const parent = new Map<number, number>();
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
  } catch {
    return { rss: NaN, peak: NaN };
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const descends = (pid: number) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  let rss = 0;
  let peak = 0;
  for (const pid of pids) {
    try {
      if (!descends(pid) || !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      rss += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
      peak += Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      // Gone meanwhile.
    }
  }
  return { rss, peak };
}
