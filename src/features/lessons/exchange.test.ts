import { describe, expect, it } from 'vitest';
import { draftFromExtra } from '../console';
import { consoleExtra, ownership, pick, scratchName } from './exchange';

describe('lesson helpers', () => {
  it('names scratch namespaces lesson-<topic>-<5 chars>, valid as DNS labels', () => {
    expect(scratchName('rv', () => 0)).toBe('lesson-rv-aaaaa');
    expect(scratchName('chunks', () => 0.999)).toBe('lesson-chunks-99999');
    for (let i = 0; i < 50; i++) expect(scratchName('apply')).toMatch(/^lesson-apply-[a-z0-9]{5}$/);
  });

  it('turns a step into console URL keys that open the same request', () => {
    const extra = consoleExtra({
      method: 'PATCH',
      path: '/api/v1/namespaces/n/configmaps/a?fieldManager=bob&force=true',
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
      body: '{"data":{"k":"v"}}',
    });
    const d = draftFromExtra(extra);
    expect(d.method).toBe('PATCH');
    expect(d.path).toBe('/api/v1/namespaces/n/configmaps/a');
    expect(d.params).toEqual([
      ['fieldManager', 'bob'],
      ['force', 'true'],
    ]);
    expect(d.headers).toEqual([['Content-Type', 'application/apply-patch+yaml']]);
    expect(d.body).toBe('{"data":{"k":"v"}}');
  });

  it('reads nested fields without trusting the shape', () => {
    expect(pick({ a: { b: 1 } }, 'a', 'b')).toBe(1);
    expect(pick({ a: null }, 'a', 'b')).toBeUndefined();
    expect(pick('text', 'a')).toBeUndefined();
  });

  it('reduces managedFields to manager, operation and owned paths', () => {
    const obj = {
      metadata: {
        managedFields: [
          { manager: 'alice', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:size': {} } } },
          { manager: 'bob', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:color': {} } } },
        ],
      },
    };
    const o = ownership(obj);
    expect(o.map((e) => e.manager)).toEqual(['alice', 'bob']);
    expect(o[1]!.fields).toContain('.data.color');
    expect(o[0]!.fields).not.toContain('.data.color');
    expect(ownership({})).toEqual([]);
  });
});
