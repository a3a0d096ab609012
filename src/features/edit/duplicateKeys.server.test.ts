// Duplicate keys in an apply (issue 41, low): an edit that gives env `X` twice. The server merges
// the elements of an apply configuration by their key and keeps one, so a forced apply of it lost
// one of the two values without a word; kubectl refuses the same manifest before sending it. The
// Edit view must refuse too: no apply body, no request, and a note naming the key at its line.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toYaml } from '../../codecs/yaml';
import { applyConfiguration, type JsonObject, withoutManagedFields } from '../../k8s/patch';
import { hasKubectl, hintsFor, kube, kubectl, patchAs, withTestNamespace } from '../../k8s/patch/server.testkit';
import { parseText } from './body';
import { editReducer, initialEditState } from './state';
import { applyRefusal, bodyToSend, requestToSend } from './toSend';

const ns = `dupkey-${randomBytes(3).toString('hex')}`;
const path = `/api/v1/namespaces/${ns}/podtemplates/t`;
const M = 'kube-api-explorer';
type Env = { template: { spec: { containers: { env: JsonObject[] }[] } } };
const envOf = (o: JsonObject) => (o as unknown as Env).template.spec.containers[0]!.env;

withTestNamespace(ns);

describe.skipIf(!hasKubectl())('an apply with a keyed list’s key given twice', () => {
  it('is refused at the line of the second element, as kubectl refuses it, and the server would have kept one', async () => {
    const theirs = { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 't', namespace: ns }, template: { spec: { containers: [{ name: 'c', image: 'nginx', env: [{ name: 'X', value: '1' }] }] } } };
    await patchAs(path, 'apply', toYaml(theirs), { fieldManager: 'other' });
    const live = await kube('GET', path);
    const hints = await hintsFor('', 'v1', 'PodTemplate');
    const edited = withoutManagedFields(live);
    envOf(edited).push({ name: 'X', value: '2' });
    const text = toYaml(edited);

    // kubectl refuses the manifest before sending it.
    const manifest = { ...theirs, template: { spec: { containers: [{ name: 'c', image: 'nginx', env: [{ name: 'X', value: '1' }, { name: 'X', value: '2' }] }] } } };
    expect(() => kubectl(['apply', '--server-side', '--force-conflicts', `--field-manager=${M}`, '-f', '-'], toYaml(manifest))).toThrow(/duplicate|X/i);
    // The server, sent such a body, keeps one of the two (what the explorer used to do).
    const merged = await patchAs(path, 'apply', toYaml(applyConfiguration(live, edited, M, { hints })), { fieldManager: M, force: 'true', dryRun: 'All' });
    expect(envOf(merged)).toHaveLength(1);

    // The Edit view builds no body and no request, and says which key, where.
    let s = editReducer(initialEditState(true), { type: 'server-object', object: live });
    s = editReducer(s, { type: 'mode', mode: 'apply' });
    s = editReducer(s, { type: 'text', text });
    const parsed = parseText(s.text, s.format);
    const body = bodyToSend(s, parsed.obj, hints);
    expect(requestToSend(s, body, { objectPath: path, collectionPath: `/api/v1/namespaces/${ns}/podtemplates` })).toBeUndefined();
    // The second `name: X` of the text.
    const lines = text.split('\n');
    const line = lines.findIndex((l, i) => /name: "?X"?$/.test(l) && lines.slice(0, i).some((p) => /name: "?X"?$/.test(p))) + 1;
    expect(line).toBeGreaterThan(0);
    expect(applyRefusal(s, parsed.obj, hints)).toContain(`line ${line}: .template.spec.containers[0].env has name: "X" twice`);
    // Other modes still send it (a PUT stores both, as the API allows).
    expect(bodyToSend(editReducer(s, { type: 'mode', mode: 'replace' }), parsed.obj, hints)).not.toBe('');
    // Nothing was written.
    expect(envOf(await kube('GET', path))).toEqual([{ name: 'X', value: '1' }]);
  });
});
