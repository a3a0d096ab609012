// The wire-format registry against what the views relied on before it existed: the body kinds,
// the binary request types and the watch Accept are the same answers for the same media types.
// (mediaTypes.server.test.ts and binaryBodies.server.test.ts check them against the real server.)
import { describe, expect, it } from 'vitest';
import { FORMAT_CODECS } from './formatCodecs';
import { encodedRequestFormat, formatOfContentType, isBinaryFormat, WIRE_FORMATS, watchFormats, wireFormat } from './formats';
import { bodyKind } from './mediaTypes';

describe('the wire-format registry', () => {
  it('reads each media type as the views did', () => {
    const cases: [string, string][] = [
      ['application/json', 'json'],
      ['application/json;as=Table;v=v1;g=meta.k8s.io', 'json'],
      ['application/merge-patch+json', 'json'],
      ['application/yaml', 'yaml'],
      ['application/apply-patch+yaml', 'yaml'],
      ['application/vnd.kubernetes.protobuf', 'protobuf'],
      ['application/vnd.kubernetes.protobuf;stream=watch', 'protobuf'],
      ['application/cbor', 'cbor'],
      ['application/cbor-seq', 'cbor'],
      ['application/apply-patch+cbor', 'cbor'],
      ['text/plain; charset=utf-8', 'text'],
      ['application/octet-stream', 'binary'],
      ['', 'binary'],
    ];
    for (const [type, kind] of cases) expect(bodyKind(type), type).toBe(kind);
    expect(bodyKind('application/json', 0)).toBe('empty');
  });

  it('has one entry per id, each matching its own media type', () => {
    expect(new Set(WIRE_FORMATS.map((f) => f.id)).size).toBe(WIRE_FORMATS.length);
    for (const f of WIRE_FORMATS) expect(formatOfContentType(f.mediaType)?.id).toBe(f.id);
    expect(WIRE_FORMATS.filter((f) => isBinaryFormat(f.id)).map((f) => f.id)).toEqual(['protobuf', 'cbor']);
  });

  it('encodes request bodies for the Protobuf and CBOR Content-Types only', () => {
    expect(encodedRequestFormat('application/vnd.kubernetes.protobuf')?.id).toBe('protobuf');
    expect(encodedRequestFormat('application/cbor')?.id).toBe('cbor');
    expect(encodedRequestFormat('application/apply-patch+cbor')?.id).toBe('cbor');
    for (const t of ['application/json', 'application/yaml', 'application/apply-patch+yaml', 'application/cbor-seq']) expect(encodedRequestFormat(t), t).toBeUndefined();
    // Every format the console encodes into has an encoder, and a decoder to read it back.
    for (const f of WIRE_FORMATS) if (f.encodedRequestTypes.length) expect(FORMAT_CODECS[f.id].encode, f.id).toBeDefined();
  });

  it('offers JSON and Protobuf to a watch, with the Accept each sends', () => {
    expect(watchFormats().map((f) => [f.id, f.watch.accept])).toEqual([
      ['json', 'application/json'],
      ['protobuf', 'application/vnd.kubernetes.protobuf;type=watch, application/json'],
    ]);
    expect(wireFormat('protobuf').capability).toBe('protobuf');
  });

  it('decodes each text format and round-trips CBOR without the schemas it does not need', () => {
    const schema = undefined as never;
    expect(FORMAT_CODECS.json.decode(new TextEncoder().encode('{"a":9007199254740993}'), schema)).toEqual({ value: { a: 9007199254740993n } });
    expect(FORMAT_CODECS.yaml.decode(new TextEncoder().encode('a: 1\n'), schema)).toEqual({ value: { a: 1 } });
    expect('error' in FORMAT_CODECS.json.decode(new TextEncoder().encode('{'), schema)).toBe(true);
  });
});
