// `npm run cluster -- --seed PRESET [--seed-pods N] [--seed-namespaces N] [--seed-crds N]`, read
// before the control plane starts: a bad flag must fail at once, not after a minute of start-up
// (or, worse, be ignored and leave the user with an empty cluster they thought was seeded).
import { SEED_PRESETS, type SeedOptions, seedProblem } from './seed';

const OVERRIDES = { '--seed-pods': 'pods', '--seed-namespaces': 'namespaces', '--seed-crds': 'crds' } as const;

export type SeedFlags = { seed?: Partial<SeedOptions> } | { error: string };

/** The seed asked for on the command line, none, or why the flags cannot be used. */
export function parseSeedFlags(args: readonly string[]): SeedFlags {
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? (args[i + 1] ?? '') : undefined;
  };
  const preset = value('--seed');
  const given = Object.keys(OVERRIDES).filter((f) => args.includes(f));
  if (preset === undefined) return given.length ? { error: `${given.join(', ')}: only with --seed PRESET (one of ${Object.keys(SEED_PRESETS).join(', ')}), whose sizes they override` } : {};
  const base = SEED_PRESETS[preset];
  if (!base) return { error: `--seed: unknown preset ${preset || '(none given)'} (one of ${Object.keys(SEED_PRESETS).join(', ')})` };
  const seed: Partial<SeedOptions> = { ...base };
  for (const [flag, key] of Object.entries(OVERRIDES)) {
    const v = value(flag);
    if (v === undefined) continue;
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) return { error: `${flag}: not a count: ${v || '(none given)'}` };
    seed[key] = Number(v);
  }
  const problem = seedProblem(seed);
  return problem ? { error: problem } : { seed };
}
