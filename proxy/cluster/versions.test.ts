import { describe, expect, it } from 'vitest';
import { CONTROL_PLANE_BINARIES, ETCD_VERSION, KUBERNETES_VERSION, OLDER_KUBERNETES_VERSION, RELEASES, releaseFor } from './versions';

describe('releaseFor', () => {
  it('gives the default release when no version is asked for', () => {
    expect(releaseFor().kubernetes).toBe(KUBERNETES_VERSION);
    expect(releaseFor('').kubernetes).toBe(KUBERNETES_VERSION);
  });

  it('accepts a version as a person types it: with or without v, a whole version or its minor', () => {
    for (const v of ['v1.33.13', '1.33.13', 'v1.33', '1.33']) expect(releaseFor(v).kubernetes).toBe(OLDER_KUBERNETES_VERSION);
  });

  it('refuses a release it has no wrapper module for, naming the ones it has', () => {
    expect(() => releaseFor('v1.3')).toThrow(/not one of the releases this project builds \(v1\.37\.1, v1\.33\.13\)/);
    expect(() => releaseFor('1.30')).toThrow(/add a wrapper module/);
  });

  it('pairs each release with its own Kubernetes wrapper module, on the one etcd', () => {
    expect(new Set(RELEASES.map((r) => r.kubeModule)).size).toBe(RELEASES.length);
    expect(releaseFor('v1.33')).toMatchObject({ etcd: ETCD_VERSION, etcdModule: 'etcd', featureGates: '' });
  });

  it('builds kubectl for the default release only (the plugin test and the benches run it); every release can start a control plane', () => {
    expect(releaseFor().binaries).toContain('kubectl');
    expect(releaseFor('v1.33').binaries).not.toContain('kubectl');
    for (const r of RELEASES) expect(r.binaries).toEqual(expect.arrayContaining([...CONTROL_PLANE_BINARIES]));
  });
});
