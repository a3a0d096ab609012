// `npm run bench`: runs each bench module in turn and prints its ratios at the end.
import * as codecs from './codecs';
import * as lists from './lists';
import * as proxy from './proxy';
import * as watch from './watch';

export interface BenchResult {
  name: string;
  /** Named ratios (lower is better unless the name says otherwise). */
  ratios: Record<string, number>;
}

export interface BenchModule {
  run(log: (line: string) => void): Promise<BenchResult>;
}

const modules: [string, BenchModule][] = [['proxy', proxy], ['lists', lists], ['watch', watch], ['codecs', codecs]];

// `npm run bench -- proxy lists` runs only the named modules.
const only = process.argv.slice(2);
const results: BenchResult[] = [];
for (const [name, mod] of modules.filter(([n]) => only.length === 0 || only.includes(n))) {
  console.log(`# ${name}`);
  results.push(await mod.run((l) => console.log(l)));
}
console.log('# ratios');
for (const r of results) for (const [k, v] of Object.entries(r.ratios)) console.log(`${r.name}: ${k} = ${v.toFixed(3)}`);
