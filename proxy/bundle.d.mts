/** The bundle of `entry` (a path from the repository root) for plain node, built again when a source is newer; its path. */
export function freshBundle(entry: string, name: string): Promise<string>;
/** esbuild plugin: @kubernetes/client-node's KubeConfig without the generated API clients (see bundle.mjs). */
export const kubeConfigOnly: import('esbuild').Plugin;
