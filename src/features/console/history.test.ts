import { describe, expect, it } from 'vitest';
import { acceptLabel } from './history';

describe('history entries name their Accept header', () => {
  it('shortens the media types the console offers, so GETs of one path can be told apart', () => {
    expect(acceptLabel('application/json')).toBe('json');
    expect(acceptLabel('application/yaml')).toBe('yaml');
    expect(acceptLabel('application/vnd.kubernetes.protobuf')).toBe('protobuf');
    expect(acceptLabel('application/cbor')).toBe('cbor');
    expect(acceptLabel('application/json;as=Table;v=v1;g=meta.k8s.io')).toBe('Table (json)');
    expect(acceptLabel('application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json')).toBe('PartialObjectMetadataList (protobuf) +1');
  });
  it('has no label without an Accept header', () => {
    expect(acceptLabel(undefined)).toBeUndefined();
    expect(acceptLabel('  ')).toBeUndefined();
  });
});
