// `npm run bench`: runs each bench module in turn and prints its ratios at the end.
import * as codecs from './codecs';
import * as lists from './lists';
import * as proxy from './proxy';
import * as scale from './scale';
import * as slowlink from './slowlink';
import * as watch from './watch';
import * as xray from './xray';

export interface BenchResult {
  name: string;
  /** Named ratios (lower is better unless the name says otherwise). */
  ratios: Record<string, number>;
}

export interface BenchModule {
  run(log: (line: string) => void): Promise<BenchResult>;
}

const modules: [string, BenchModule][] = [['proxy', proxy], ['lists', lists], ['watch', watch], ['codecs', codecs], ['scale', scale], ['slowlink', slowlink], ['xray', xray]];

// `npm run bench -- proxy lists` runs only the named modules. The scale module's size:
// `--objects N` (Pods; default 3,000), `--crds N`, `--cluster-dir DIR` (a control plane kept and
// seeded once: see scale.ts), passed on through the environment.
const args = process.argv.slice(2);
const flags: Record<string, string> = { '--objects': 'SCALE_OBJECTS', '--crds': 'SCALE_CRDS', '--cluster-dir': 'SCALE_CLUSTER_DIR' };
const only: string[] = [];
/** A bad argument stops the bench before it starts anything (a control plane takes minutes). */
const refuse = (why: string): never => {
  console.error(`npm run bench: ${why}`);
  process.exit(2);
};
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  const env = flags[a];
  if (!env) {
    if (!modules.some(([n]) => n === a)) refuse(`unknown module or flag ${a} (modules: ${modules.map(([n]) => n).join(', ')}; flags: ${Object.keys(flags).join(', ')})`);
    only.push(a);
    continue;
  }
  const v = args[++i];
  if (v === undefined || v.startsWith('--')) refuse(`${a} needs a value`);
  if (a !== '--cluster-dir' && !/^[1-9]\d*$/.test(v!)) refuse(`${a}: not a positive count: ${v}`);
  process.env[env] = v;
}
const results: BenchResult[] = [];
for (const [name, mod] of modules.filter(([n]) => only.length === 0 || only.includes(n))) {
  console.log(`# ${name}`);
  results.push(await mod.run((l) => console.log(l)));
}
console.log('# ratios');
for (const r of results) for (const [k, v] of Object.entries(r.ratios)) console.log(`${r.name}: ${k} = ${v.toFixed(3)}`);
