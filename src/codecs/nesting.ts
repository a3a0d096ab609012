// A bound on how deep the views follow an object. The API server stores a custom resource of any
// depth its JSON decoder takes (10,000 levels; 1.37 serves back those a few levels less deep: it
// stores them as CBOR, whose decoder stops at 10,000 with its own count), and kubectl prints it; the explorer's renderers,
// differs and editors walk objects recursively (as do JSON.stringify and the YAML libraries), so
// an object a few thousand levels deep overflowed the stack and replaced the whole page with
// "Maximum call stack size exceeded". Objects past the bound are refused, with that said, before
// any of them walks it; real objects stay far below it (a Deployment is about 12 levels deep).

export const MAX_NESTING = 512;

export class NestingError extends Error {
  override name = 'NestingError';
}

/**
 * The deepest nesting of objects and arrays in a JSON text, by one scan that skips strings; it
 * stops counting once past `limit`.
 */
export function jsonNesting(text: string, limit = MAX_NESTING): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** Throws NestingError when the JSON text nests deeper than the views follow. */
export function refuseDeepNesting(text: string, what = 'This object'): void {
  if (jsonNesting(text) > MAX_NESTING) {
    throw new NestingError(`${what} is nested more than ${MAX_NESTING} levels deep: the explorer's views show objects up to ${MAX_NESTING} levels (kubectl get -o json prints it whole)`);
  }
}

/**
 * The largest single object the views open, as JSON text (UTF-16 code units, about bytes). An API
 * server stores at most about 1.5 MiB per object (etcd's request limit); only a crafted recording
 * holds more, and a 60 MB one crashed the Edit and Ownership views.
 */
export const MAX_OBJECT_TEXT = 8 * 1024 * 1024;

/** Throws NestingError when one object's JSON text is larger than the views open. */
export function refuseOversizedObject(text: string, what = 'This object'): void {
  if (text.length > MAX_OBJECT_TEXT) {
    throw new NestingError(`${what} is ${(text.length / 1024 / 1024).toFixed(1)} MiB of JSON: the explorer's views open objects up to ${MAX_OBJECT_TEXT / 1024 / 1024} MiB (an API server stores at most about 1.5 MiB per object)`);
  }
}
