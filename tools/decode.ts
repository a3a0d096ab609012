// `npm run --silent decode -- <file|->`: captured bytes (a response body, a recorded watch) in
// any wire format Kubernetes speaks, printed as their JSON form on standard output with the same
// codec modules the browser uses. A watch prints one `{"type":…,"object":…}` line per event.
// Exit status: 0 decoded; 1 the bytes are malformed or truncated (what and where on standard
// error, nothing on standard output); 2 usage or an unreadable file.
import { readFileSync } from 'node:fs';
import { decodeBytes } from '../src/codecs/detect';
import { toJson } from '../src/codecs/json';
import { loadK8sSchema } from '../src/codecs/protobuf';

const args = process.argv.slice(2).filter((a) => a !== '--');
const compact = args.includes('--compact');
const files = args.filter((a) => a !== '--compact');
if (files.length !== 1 || files[0] === '-h' || files[0] === '--help') {
  process.stderr.write('usage: npm run --silent decode -- [--compact] <file | ->\n  Detects Protobuf (body or watch), CBOR (body or sequence), JSON, newline-delimited JSON and YAML.\n');
  process.exit(files.length === 1 ? 0 : 2);
}
let bytes: Uint8Array;
try {
  bytes = new Uint8Array(files[0] === '-' ? readFileSync(0) : readFileSync(files[0]!));
} catch (e) {
  process.stderr.write(`decode: cannot read ${files[0]}: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
}
const schema = await loadK8sSchema();
const r = decodeBytes(schema, bytes);
if (!r.ok) {
  process.stderr.write(`decode: ${r.format ? `${r.format}: ` : ''}${r.error}\n`);
  process.exit(1);
}
for (const n of r.value.notes) process.stderr.write(`decode: note: ${n}\n`);
process.stderr.write(`decode: ${r.value.format}, ${bytes.length} bytes${r.value.watch ? `, ${r.value.values.length} event(s)` : ''}\n`);
// toJson: integers beyond 2^53 (read as bigint) printed digit for digit, as the server sent them.
let out: string[];
try {
  out = r.value.values.map((v) => (r.value.watch || compact ? toJson(v) : toJson(v, 2)));
} catch (e) {
  // A CBOR float may be NaN or Infinity, which JSON cannot write (never null in their place).
  process.stderr.write(`decode: ${r.value.format}: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
process.stdout.write(`${out.join('\n')}\n`);
