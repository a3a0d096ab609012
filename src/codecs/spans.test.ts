// Byte spans for the hex view, on golden fixtures: the bytes a span names are that field's bytes.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadK8sSchema } from './protobuf';
import { cborSpans, innermost, protobufSpans, protobufWatchSpans } from './spans';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const bytes = (f: string) => new Uint8Array(readFileSync(join(dir, f)));
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('byte spans', () => {
  it('names the envelope and the fields of a Protobuf body by their JSON paths', async () => {
    const schema = await loadK8sSchema();
    const b = bytes('configmap.pb');
    const spans = protobufSpans(schema, b);
    expect(spans[0]).toMatchObject({ start: 0, end: 4, kind: 'framing' });
    const name = spans.find((s) => s.label === 'metadata.name')!;
    // Key 0a (field 1, length-delimited), length 8, then "settings".
    expect([...b.subarray(name.start, name.start + 2)]).toEqual([0x0a, 8]);
    expect(text(b.subarray(name.start + 2, name.end))).toBe('settings');
    const greeting = spans.find((s) => s.label === 'data.greeting' || s.label === 'data["greeting"]')!;
    expect(text(b.subarray(greeting.start, greeting.end))).toContain('hello');
    expect(innermost(spans, name.start + 3)?.label).toBe('metadata.name');
  });

  it('marks each frame of a Protobuf watch and the objects inside', async () => {
    const schema = await loadK8sSchema();
    const spans = protobufWatchSpans(schema, bytes('watch-configmaps.pb'));
    expect(spans.filter((s) => /^frame \d+$/.test(s.label))).toHaveLength(4);
    expect(spans.filter((s) => s.label === 'metadata.name').length).toBe(4);
  });

  it('names CBOR map entries by their keys and marks the self-described tag', () => {
    const b = bytes('configmap.cbor');
    const spans = cborSpans(b);
    expect(spans.find((s) => s.kind === 'framing' && s.start === 0 && s.end === 3)?.label).toMatch(/55799/);
    const name = spans.find((s) => s.label === 'metadata.name')!;
    expect(text(b.subarray(name.start, name.end))).toContain('settings');
  });
});
