// Against the real local control plane, through the real proxy: whichever release the run
// started (the default one serves CBOR and streaming lists; the older one of the skew suite
// refuses both, and the probes must say so with the server's own Status).
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_CONTEXT, TEST_VIEWER_CONTEXT, useRealProxy } from '../proxy.testkit';
import { probeCapabilities, probeResourceAccepts } from './capabilities';

beforeAll(() => {
  useRealProxy();
});

const version = () => inject('controlPlane').kubernetesVersion;
const minor = () => Number(version().split('.')[1]);

describe('capability probe', () => {
  it('reports the server version and what it serves, with the Status of each refusal', async () => {
    const c = await probeCapabilities(TEST_CONTEXT);
    expect(c.version?.gitVersion).toBe(version());
    expect(c.aggregatedDiscovery.answer).toBe('yes');
    expect(c.protobuf.answer).toBe('yes');
    if (minor() >= 37) {
      // Our default control plane turns CBORServingAndStorage on; WatchList is on by default.
      expect(c.cbor).toMatchObject({ answer: 'yes', httpStatus: 200 });
      expect(c.watchList).toMatchObject({ answer: 'yes', httpStatus: 200 });
    } else {
      expect(c.cbor).toMatchObject({ answer: 'no', httpStatus: 406, status: { reason: 'NotAcceptable' } });
      expect(c.watchList).toMatchObject({ answer: 'no', httpStatus: 422, status: { reason: 'Invalid' } });
      expect(c.watchList.status?.message).toMatch(/sendInitialEvents/);
    }
  });

  it('tells a refusal of the format from a refusal of the user', async () => {
    // The viewer may not list secrets: a 403 says nothing about CBOR, so the answer is unknown.
    const answers = await probeResourceAccepts(TEST_VIEWER_CONTEXT, '/api/v1/namespaces/default/secrets');
    for (const a of answers) expect(a.probe).toMatchObject({ answer: 'unknown', httpStatus: 403 });
  });

  it('asks each representation of one resource: JSON, YAML, Protobuf and Table always, CBOR as the server allows', async () => {
    const answers = Object.fromEntries((await probeResourceAccepts(TEST_CONTEXT, '/api/v1/namespaces/default/configmaps')).map((a) => [a.label, a.probe.answer]));
    expect(answers).toEqual({ JSON: 'yes', YAML: 'yes', Protobuf: 'yes', Table: 'yes', CBOR: minor() >= 37 ? 'yes' : 'no' });
  });
});
