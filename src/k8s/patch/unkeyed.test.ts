// unkeyedLists (pure): which changed lists of objects an apply must send whole because the hints
// name no key for them, so that the Edit view can say so instead of silently owning every element.
import { describe, expect, it } from 'vitest';
import { applyConfiguration, unkeyedLists } from './apply';
import { type FieldHints, NO_HINTS } from './hints';
import type { JsonObject } from './patch';

const pod = (image: string, extra: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }] }, { name: 'side', image }], ...extra },
});
const hints: FieldHints = (p) => {
  const path = p.join('.');
  if (path === 'spec.containers' || path === 'spec.containers.env') return { mergeKey: 'name', strategy: 'merge', listType: 'map', mapKeys: ['name'] };
  if (path === 'spec.hostAliases') return { listType: 'atomic' };
  return undefined;
};

describe('unkeyedLists', () => {
  it('with no schema, names the changed list of objects; unchanged lists are not named', () => {
    expect(unkeyedLists(pod('side:1'), pod('side:2'), NO_HINTS)).toEqual(['.spec.containers']);
    expect(unkeyedLists(pod('side:1'), pod('side:1'), NO_HINTS)).toEqual([]);
  });

  it('with the schema, keyed lists and atomic lists are not named, an unknown one inside a keyed element is', () => {
    expect(unkeyedLists(pod('side:1'), pod('side:2'), hints)).toEqual([]);
    expect(unkeyedLists(pod('side:1'), pod('side:1', { hostAliases: [{ ip: '1.2.3.4' }] }), hints)).toEqual([]);
    const withExtra = pod('side:1');
    ((withExtra.spec as JsonObject).containers as JsonObject[])[1]!.volumeMounts = [{ name: 'v', mountPath: '/v' }];
    expect(unkeyedLists(pod('side:1'), withExtra, hints)).toEqual(['.spec.containers[1].volumeMounts']);
  });

  it('a manager that owns nothing sends only the changed element, with its key (the touched-fields body)', () => {
    const body = applyConfiguration(pod('side:1'), pod('side:2'), 'm-touched', { hints });
    expect(body.spec).toEqual({ containers: [{ name: 'side', image: 'side:2' }] });
  });
});
