import { describe, expect, it } from 'vitest';
import { fromYaml, yamlVersionDifferences } from '../../codecs/yaml';
import { applySkeleton } from './applySkeleton';

describe('applySkeleton', () => {
  // Names YAML 1.1 (kube-apiserver's reader of apply-patch+yaml) resolves to something other than
  // a string, and that a YAML 1.2 writer leaves plain.
  it.each(['on', 'yes', 'y', 'no', 'off', 'n', 'true', '1_000', '0x1f', '012'])('keeps the name and namespace %j strings for the server', (word) => {
    const text = applySkeleton({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: word, namespace: word } });
    expect(yamlVersionDifferences(text)).toEqual([]);
    expect(fromYaml(text)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: word, namespace: word } });
  });

  it('leaves the namespace out for a cluster-scoped object', () => {
    expect(fromYaml(applySkeleton({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'lessons' } }))).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'lessons' } });
  });
});
