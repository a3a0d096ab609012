// Builds the protobufjs descriptor the explorer decodes Kubernetes protobuf with, from the
// `generated.proto` files of the exact module versions the local control plane is built from
// (they sit in the Go module cache once `npm run cluster:build` has run), plus what the .proto
// files do not say and the JSON form needs, read from the Go sources beside them:
// - the JSON name of every field (the `json:"…"` struct tag: `$ref`, `x-kubernetes-…` differ
//   from the proto names), whether it is `omitempty` or `omitzero` (Go 1.24: a zero struct, such
//   as an unset creationTimestamp, is left out rather than written as null), whether the Go field is a pointer (a
//   pointer field is written to the wire only when set, and then shown even when zero), and
//   embedded structs that JSON inlines (`VolumeSource` in `Volume`);
// - Go types that are slices but travel as a message with one `items` field (`ExtraValue`);
// - which protobuf package serves which API group/version (`+groupName=` in doc.go).
// Rerun for a newer Kubernetes: `npm run proto:generate -- [version]`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { KUBERNETES_VERSION } from '../proxy/cluster/versions';

/** The descriptor the codecs load (src/codecs/protobuf/schema.ts). */
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'codecs', 'proto', 'k8s-descriptor.json');
const kube = process.argv[2] ?? KUBERNETES_VERSION;
const staging = kube.replace(/^v1\./, 'v0.');
const modcache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
const modules = ['api', 'apimachinery', 'apiextensions-apiserver', 'kube-aggregator'].map((m) => ({ module: `k8s.io/${m}`, dir: join(modcache, 'k8s.io', `${m}@${staging}`) }));
for (const m of modules) if (!existsSync(m.dir)) throw new Error(`${m.dir} is missing: build the control plane first (npm run cluster:build).`);

function findProtos(dir: string): string[] {
  const found: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) found.push(...findProtos(p));
    else if (e.name === 'generated.proto' && !/\/(testapigroup|internal|test)\//.test(p)) found.push(p);
  }
  return found;
}

interface GoField {
  json: string;
  omitempty: boolean;
  omitzero: boolean;
  pointer: boolean;
  inline: boolean;
}
interface GoType {
  fields: Map<number, GoField>;
  sliceOf?: string;
}

/** The struct types of one Go package: for each, its protobuf field numbers with the JSON facts. */
function goTypes(dir: string): Map<string, GoType> {
  const types = new Map<string, GoType>();
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.go') || f.endsWith('_test.go') || f.startsWith('zz_') || f === 'generated.pb.go') continue;
    const src = readFileSync(join(dir, f), 'utf8');
    for (const m of src.matchAll(/^type (\w+) \[\]([\w.]+)\s*$/gm)) types.set(m[1]!, { fields: new Map(), sliceOf: m[2]! });
    for (const m of src.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields = new Map<number, GoField>();
      for (const line of m[2]!.split('\n')) {
        const fm = /^\s*(?:(\w+)\s+)?([\w.*[\]]+)\s+`([^`]*)`/.exec(line);
        if (!fm) continue;
        const tag = fm[3]!;
        const pb = /protobuf:"([^"]*)"/.exec(tag)?.[1];
        if (!pb || pb === '-') continue;
        const num = Number(pb.split(',')[1]);
        const js = /json:"([^"]*)"/.exec(tag)?.[1] ?? '';
        const [jsName = '', ...opts] = js.split(',');
        const anonymous = fm[1] === undefined;
        fields.set(num, {
          json: jsName === '' ? (anonymous ? '' : fm[1]!) : jsName,
          omitempty: opts.includes('omitempty'),
          omitzero: opts.includes('omitzero'),
          pointer: fm[2]!.startsWith('*'),
          inline: anonymous && jsName === '',
        });
      }
      types.set(m[1]!, { fields });
    }
  }
  return types;
}

const root = new protobuf.Root();
const groupVersions: Record<string, string> = {};
const files: string[] = [];
for (const m of modules) {
  for (const p of findProtos(m.dir)) {
    files.push(p);
    const pkgDir = dirname(p);
    const src = readFileSync(p, 'utf8');
    const parsed = protobuf.parse(src, root, { keepCase: true, alternateCommentMode: false });
    const pkg = parsed.package!;
    const goPkg = `${m.module}/${relative(m.dir, pkgDir)}`;
    const doc = existsSync(join(pkgDir, 'doc.go')) ? readFileSync(join(pkgDir, 'doc.go'), 'utf8') : '';
    const register = existsSync(join(pkgDir, 'register.go')) ? readFileSync(join(pkgDir, 'register.go'), 'utf8') : '';
    // The group is named in doc.go (`+groupName=`) or, for the older groups, in register.go.
    const group = /\+groupName=([\w.-]*)/.exec(doc)?.[1] ?? /const GroupName = "([\w.-]*)"/.exec(register)?.[1];
    const version = pkgDir.split('/').pop()!;
    if (group !== undefined && /^v\d/.test(version)) groupVersions[group ? `${group}/${version}` : version] = pkg;
    const go = goTypes(pkgDir);
    const ns = root.lookup(pkg) as protobuf.Namespace;
    for (const t of ns.nestedArray) {
      if (!(t instanceof protobuf.Type)) continue;
      const g = go.get(t.name);
      if (!g) {
        console.warn(`no Go type for ${pkg}.${t.name} (${goPkg})`);
        continue;
      }
      if (g.sliceOf) t.setOption('(k8s.slice)', true);
      for (const field of t.fieldsArray) {
        const gf = g.fields.get(field.id);
        if (!gf) {
          if (!g.sliceOf) console.warn(`no Go field for ${pkg}.${t.name}.${field.name} = ${field.id}`);
          continue;
        }
        field.options ??= {};
        if (gf.json !== field.name) field.options.json_name = gf.json;
        if (gf.omitempty) field.options['(k8s.omitempty)'] = true;
        if (gf.omitzero) field.options['(k8s.omitzero)'] = true;
        if (gf.pointer) field.options['(k8s.pointer)'] = true;
        if (gf.inline) field.options['(k8s.inline)'] = true;
      }
    }
  }
}
root.resolveAll();
const json = { kubernetes: kube, groupVersions, root: root.toJSON({ keepComments: false }) };
writeFileSync(out, JSON.stringify(json));
console.log(`${files.length} generated.proto files → ${relative(process.cwd(), out)} (${(JSON.stringify(json).length / 1024).toFixed(0)} KiB), ${Object.keys(groupVersions).length} group versions`);
