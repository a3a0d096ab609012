// The Kubernetes protobuf schema: a protobufjs descriptor of the `generated.proto` files of the
// control plane's own module versions (built by tools/generate-proto.ts), loaded lazily (it is
// ~450 KiB; only views that meet protobuf pay for it).
import protobuf from 'protobufjs';

export interface DescriptorJson {
  kubernetes: string;
  groupVersions: Record<string, string>;
  root: protobuf.INamespace;
}

export interface K8sSchema {
  kubernetes: string;
  root: protobuf.Root;
  /**
   * Decoders compiled at build time (tools/generate-decoders.ts), by full type name without the
   * leading dot: the message bytes to the JSON form. Types without one are decoded by walking `root`.
   */
  compiled?: Readonly<Record<string, (bytes: Uint8Array) => unknown>>;
  /** The message type for an apiVersion and kind, or undefined when the schema does not know it. */
  typeFor(apiVersion: string, kind: string): protobuf.Type | undefined;
}

export const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

export function schemaFromDescriptor(desc: DescriptorJson, compiled?: K8sSchema['compiled']): K8sSchema {
  const root = protobuf.Root.fromJSON(desc.root);
  root.resolveAll();
  const cache = new Map<string, protobuf.Type | undefined>();
  return {
    kubernetes: desc.kubernetes,
    root,
    compiled,
    typeFor(apiVersion, kind) {
      const key = `${apiVersion}/${kind}`;
      if (cache.has(key)) return cache.get(key);
      // Kinds common to every group version (Status, WatchEvent, APIResourceList…) live in meta/v1.
      const pkgs = [desc.groupVersions[apiVersion], META].filter((p): p is string => !!p);
      let found: protobuf.Type | undefined;
      for (const p of pkgs) {
        const t = root.lookup(`${p}.${kind}`);
        if (t instanceof protobuf.Type) {
          found = t;
          break;
        }
      }
      cache.set(key, found);
      return found;
    },
  };
}

let loading: Promise<K8sSchema> | undefined;
let loaded: K8sSchema | undefined;

/** The schema of the Kubernetes version the explorer was built for, fetched on first use. */
export function loadK8sSchema(): Promise<K8sSchema> {
  // The compiled decoders come with the descriptor (one more chunk, ~170 KiB of source): they are
  // generated from the same file, so they always match it.
  loading ??= Promise.all([import('../proto/k8s-descriptor.json'), import('./compiled')]).then(
    ([m, c]) => (loaded = schemaFromDescriptor((m.default ?? m) as unknown as DescriptorJson, c.compiledDecoders)),
  );
  return loading;
}

/** The schema if it has been loaded already (views render at once then), else undefined. */
export function loadedK8sSchema(): K8sSchema | undefined {
  return loaded;
}
