// postject ships no types; this is the one function build.ts calls.
declare module 'postject' {
  export function inject(file: string, resourceName: string, data: Buffer, options: { sentinelFuse: string; machoSegmentName?: string; overwrite?: boolean }): Promise<void>;
}
