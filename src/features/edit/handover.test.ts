// A create handed to the editor of the object it made (the route changes, a fresh editor mounts):
// what the user typed while the create was on its way is kept, re-applied onto the created
// object, and the editor keeps the user's format. Before, the fresh editor showed the server's
// answer in YAML and the typing was lost.
import { describe, expect, it } from 'vitest';
import { type JsonObject, NO_HINTS } from '../../k8s/patch';
import { classifyOutcome, parseText, serialize } from './body';
import { editorKey, handOver, initialState } from './handover';
import { isPristine, undecidedConflicts } from './state';

const cm = (rv: string | undefined, data: Record<string, string>): JsonObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd', ...(rv ? { resourceVersion: rv } : {}) }, data });

/** The server's 201 to a POST of `object`. */
function created(object: JsonObject) {
  const exchange = { id: 1, at: '', mode: 'create' as const, request: { method: 'POST', path: '/api/v1/namespaces/d/configmaps', query: {}, headers: {} }, response: { status: 201, statusText: 'Created', headers: [], body: JSON.stringify(object) } };
  return classifyOutcome(exchange, { mode: 'create', dryRun: false, hints: NO_HINTS });
}

const key = editorKey({ namespace: 'd', group: '', version: 'v1', resource: 'configmaps', name: 'x' });

describe('the editor of a created object', () => {
  it('keeps what was typed while the create was on its way, in the format it was typed in', () => {
    const sent = serialize(cm(undefined, { a: '1' }), 'json');
    const typed = serialize(cm(undefined, { a: '1', b: 'typed meanwhile' }), 'json');
    handOver(key, { outcome: created(cm('7', { a: '1' })), mode: 'merge-patch', editor: { text: typed, format: 'json', sent: { text: sent, format: 'json' } } });
    const s = initialState(key, true);
    expect(s.format).toBe('json');
    expect(parseText(s.text, 'json').obj).toEqual(cm('7', { a: '1', b: 'typed meanwhile' }));
    expect(s.base).toEqual(cm('7', { a: '1' }));
    expect(undecidedConflicts(s)).toEqual([]);
    expect(s.mode).toBe('merge-patch');
  });

  it('shows the created object when nothing was typed since, still in the user\'s format', () => {
    const sent = serialize(cm(undefined, { a: '1' }), 'json');
    handOver(key, { outcome: created(cm('7', { a: '1' })), mode: 'merge-patch', editor: { text: sent, format: 'json', sent: { text: sent, format: 'json' } } });
    const s = initialState(key, true);
    expect(s.format).toBe('json');
    expect(isPristine(s)).toBe(true);
    expect(parseText(s.text, 'json').obj).toEqual(cm('7', { a: '1' }));
  });
});
