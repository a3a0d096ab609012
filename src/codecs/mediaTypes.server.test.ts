// Every Accept preset sent to the real server (through the real proxy): the server must accept it,
// and the Content-Type it answers with must be classified as the body it is.
import { beforeAll, describe, expect, it } from 'vitest';
import { kubeFetch } from '../k8s/client';
import { TEST_CONTEXT, useRealProxy } from '../k8s/proxy.testkit';
import { hexDump } from './hex';
import { ACCEPT_PRESETS, baseType, bodyKind, mediaParams } from './mediaTypes';

beforeAll(() => {
  useRealProxy();
});

// `as`: the kind of the body. The server names it in the Content-Type only for discovery
// (`as=APIGroupDiscoveryList`); a Table or PartialObjectMetadata answer says plain
// `application/json`, so the body's own `kind` is what tells them apart.
const EXPECTED: Record<string, { path: string; kind: string; as?: string }> = {
  JSON: { path: '/api/v1/namespaces/default', kind: 'json' },
  YAML: { path: '/api/v1/namespaces/default', kind: 'yaml' },
  Protobuf: { path: '/api/v1/namespaces/default', kind: 'protobuf' },
  'Protobuf, JSON fallback': { path: '/api/v1/namespaces/default', kind: 'protobuf' },
  CBOR: { path: '/api/v1/namespaces/default', kind: 'cbor' },
  Table: { path: '/api/v1/namespaces', kind: 'json', as: 'Table' },
  PartialObjectMetadata: { path: '/api/v1/namespaces/default', kind: 'json', as: 'PartialObjectMetadata' },
  PartialObjectMetadataList: { path: '/api/v1/namespaces', kind: 'json', as: 'PartialObjectMetadataList' },
  'Aggregated discovery': { path: '/apis', kind: 'json', as: 'APIGroupDiscoveryList' },
  Any: { path: '/api/v1/namespaces/default', kind: 'json' },
};

describe('Accept presets against the real server', () => {
  it('covers every preset in this test', () => {
    expect(ACCEPT_PRESETS.map((p) => p.label).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const preset of ACCEPT_PRESETS) {
    it(`${preset.label}: ${preset.value}`, async () => {
      const want = EXPECTED[preset.label]!;
      const res = await kubeFetch({ context: TEST_CONTEXT, path: want.path, headers: { Accept: preset.value } });
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(res.status).toBe(200);
      const type = res.headers.get('Content-Type');
      expect(bodyKind(type, bytes.length)).toBe(want.kind);
      if (want.as) expect((JSON.parse(new TextDecoder().decode(bytes)) as { kind: string }).kind).toBe(want.as);
      if (want.as === 'APIGroupDiscoveryList') expect(mediaParams(type).as).toBe(want.as);
      if (want.as === 'Table') expect(mediaParams(type).as).toBeUndefined();
    });
  }

  it('dumps a protobuf body with the k8s\\0 magic first', async () => {
    const res = await kubeFetch({ context: TEST_CONTEXT, path: '/api/v1/namespaces/default', headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    expect(baseType(res.headers.get('Content-Type'))).toBe('application/vnd.kubernetes.protobuf');
    const dump = hexDump(new Uint8Array(await res.arrayBuffer()));
    expect(dump.split('\n')[0]).toMatch(/^00000000 {2}6b 38 73 00 0a /);
    expect(dump.split('\n')[0]).toMatch(/\|k8s\.\./);
  });
});

