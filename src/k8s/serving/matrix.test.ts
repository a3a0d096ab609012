import { describe, expect, it } from 'vitest';
import { matrixCsv } from './export';
import {
  CHECKS,
  classifyAccept,
  classifyBookmarks,
  classifyCompactedWatch,
  classifyExpiredContinue,
  classifyMetadataWatch,
  expiredContinueToken,
  classifyChunking,
  classifyRead,
  classifyStream,
  classifyWrite,
  type Cell,
  type Check,
  informerProblems,
  withoutObjects,
  readRequest,
  type Row,
  writeRequest,
} from './matrix';

const flunders = { group: 'wardle.example.com', version: 'v1beta1', resource: 'flunders', kind: 'Flunder', namespaced: true, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] };

describe('serving checks: requests', () => {
  it('reads are small: limit=1, or a label no object carries', () => {
    expect(readRequest('list', '/api/v1/namespaces/x/pods').path).toBe('/api/v1/namespaces/x/pods?limit=1');
    expect(readRequest('metadata', '/c').accept).toBe('application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io');
    const s = readRequest('streamingList', '/c').path;
    expect(s).toContain('sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=&');
    expect(s).toContain('labelSelector=kube-api-explorer-probe%3Dnone');
  });

  it('writes are dry runs of the smallest object', () => {
    const create = writeRequest('dryRun', flunders, 'ns1');
    expect(create).toMatchObject({ method: 'POST', path: '/apis/wardle.example.com/v1beta1/namespaces/ns1/flunders?dryRun=All' });
    expect(JSON.parse(create.body!)).toEqual({ apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name: 'kube-api-explorer-serving-probe', namespace: 'ns1' } });
    const apply = writeRequest('apply', { ...flunders, namespaced: false }, 'ns1');
    expect(apply.path).toBe('/apis/wardle.example.com/v1beta1/flunders/kube-api-explorer-serving-probe?dryRun=All&fieldManager=kube-api-explorer-probe');
    expect(apply.contentType).toBe('application/apply-patch+yaml');
  });
});

describe('serving checks: answers', () => {
  it('an Accept is served only when the answer comes in it; 406 is the refusal; 403 tells nothing', () => {
    expect(classifyAccept('protobuf', { status: 406, message: 'only the following media types are accepted: application/json' }).verdict).toBe('no');
    expect(classifyAccept('cbor', { status: 200, contentType: 'application/cbor' }).verdict).toBe('yes');
    // kube-apiserver labels a Table plain application/json: the body's kind tells.
    expect(classifyAccept('table', { status: 200, contentType: 'application/json', kind: 'Table' }).verdict).toBe('yes');
    // A server that ignores the `as` parameter answers a plain list: not a Table.
    expect(classifyAccept('table', { status: 200, contentType: 'application/json', kind: 'ConfigMapList' }).verdict).toBe('no');
    expect(classifyAccept('metadata', { status: 403 }).verdict).toBe('unknown');
  });

  it('selectors: 200 accepted, 400 refused', () => {
    expect(classifyRead('fieldSelector', { status: 200 }).verdict).toBe('yes');
    expect(classifyRead('fieldSelector', { status: 400, message: 'field label not supported: spec.x' }).verdict).toBe('no');
  });

  it('chunking needs two objects to tell, and a followed continue token', () => {
    expect(classifyChunking({ items: 1, continueToken: 'abc' }, { status: 200 }).verdict).toBe('yes');
    expect(classifyChunking({ items: 3 }).verdict).toBe('no');
    expect(classifyChunking({ items: 1 }).verdict).toBe('unknown');
    expect(classifyChunking({ items: 1, continueToken: 'abc' }, { status: 410 }).verdict).toBe('unknown');
  });

  it('a streaming list is served only when it ends with the initial-events-end bookmark', () => {
    const end = { type: 'BOOKMARK', annotations: { 'k8s.io/initial-events-end': 'true' }, resourceVersion: '42' };
    expect(classifyStream({ status: 200 }, [end], 'found')).toMatchObject({ verdict: 'yes' });
    const without = classifyStream({ status: 200 }, [{ type: 'ADDED' }, { type: 'BOOKMARK' }], 'end');
    expect(without).toMatchObject({ verdict: 'no', httpStatus: 200 });
    expect(without.detail).toContain('140890');
    const refused = classifyStream({ status: 422, message: 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled' }, [], 'end');
    expect(refused.detail).toContain('falls back to list, then watch');
  });

  it('410 is the answer to an expired continue token and to a compacted watch, as the status or as the first event', () => {
    expect(classifyExpiredContinue({ status: 410, message: 'The provided continue parameter is too old' }).verdict).toBe('yes');
    expect(classifyExpiredContinue({ status: 200 }).verdict).toBe('unknown');
    expect(classifyExpiredContinue({ status: 400, message: 'invalid continue token' })).toMatchObject({ verdict: 'no', httpStatus: 400 });
    expect(classifyCompactedWatch({ status: 200 }, [{ type: 'ERROR', code: 410, reason: 'Expired', message: 'too old resource version: 1 (42)' }]).verdict).toBe('yes');
    expect(classifyCompactedWatch({ status: 200 }, [{ type: 'ERROR', code: 500, message: 'boom' }]).verdict).toBe('no');
    expect(classifyCompactedWatch({ status: 200 }, [{ type: 'ADDED' }, { type: 'ADDED' }])).toMatchObject({ verdict: 'unknown', detail: expect.stringContaining('sent ADDED events') });
    expect(classifyCompactedWatch({ status: 410 }, []).verdict).toBe('yes');
  });

  it('a bookmark before the timeout; metadata-only watch events carry PartialObjectMetadata', () => {
    expect(classifyBookmarks({ status: 200 }, [{ type: 'BOOKMARK', resourceVersion: '7' }], 'found').verdict).toBe('yes');
    expect(classifyBookmarks({ status: 200 }, [{ type: 'ADDED' }], 'end').verdict).toBe('unknown');
    // The initial-events-end bookmark is not the periodic one.
    expect(classifyBookmarks({ status: 200 }, [{ type: 'BOOKMARK', annotations: { 'k8s.io/initial-events-end': 'true' } }], 'timeout').verdict).toBe('unknown');
    expect(classifyMetadataWatch({ status: 200 }, [{ type: 'ADDED', kind: 'PartialObjectMetadata' }]).verdict).toBe('yes');
    expect(classifyMetadataWatch({ status: 200 }, [{ type: 'ADDED', kind: 'Flunder' }]).verdict).toBe('no');
    expect(classifyMetadataWatch({ status: 406 }, []).verdict).toBe('no');
  });

  it('an expired continue token keeps the server’s start key and names a compacted resourceVersion', () => {
    const real = btoa(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 42, start: 'b\u0000' })).replace(/=+$/, '');
    expect(JSON.parse(atob(expiredContinueToken(real)))).toEqual({ v: 'meta.k8s.io/v1', rv: 1, start: 'b\u0000' });
    expect(JSON.parse(atob(expiredContinueToken(undefined))).rv).toBe(1);
  });

  it('a dry-run write counts as served when the server validated the body (422), refused when the media type is (415)', () => {
    expect(classifyWrite('apply', { status: 201 }).verdict).toBe('yes');
    expect(classifyWrite('dryRun', { status: 422, message: 'spec.containers: Required value' }).verdict).toBe('yes');
    expect(classifyWrite('apply', { status: 415 }).verdict).toBe('no');
    expect(classifyWrite('apply', { status: 403 }).verdict).toBe('unknown');
  });
});

function row(cells: Partial<Record<Check, Cell>>, verbs = flunders.verbs): Row {
  const all = Object.fromEntries(CHECKS.map((c) => [c, cells[c] ?? { verdict: 'yes', detail: '' }])) as Record<Check, Cell>;
  return { target: { ...flunders, verbs }, collection: '/c', cells: all };
}

describe('what would break an informer', () => {
  it('names refusals and a streaming list without its bookmark; a resource without both verbs is not informer material', () => {
    expect(informerProblems(row({}))).toEqual([]);
    expect(informerProblems(row({}, ['get', 'list']))).toEqual([]);
    expect(informerProblems(row({ watch: { verdict: 'no', detail: 'watch refused: 405', httpStatus: 405 } }))).toEqual([expect.stringMatching(/^watch refused \(watch refused: 405\): the reflector lists, fails to watch/)]);
    expect(informerProblems(row({}, ['create']))).toEqual([]);
    expect(informerProblems(row({ streamingList: { verdict: 'no', detail: '', httpStatus: 200 } }))).toEqual([expect.stringMatching(/^streaming list without the k8s.io\/initial-events-end bookmark: the reflector opens another streaming list/)]);
    // Refused with 422: client-go falls back; nothing breaks.
    expect(informerProblems(row({ streamingList: { verdict: 'no', detail: '', httpStatus: 422 } }))).toEqual([]);
  });

  it('exports one CSV line per resource, quoted where needed', () => {
    const csv = matrixCsv([row({ list: { verdict: 'no', detail: 'list refused: 500, "boom"', httpStatus: 500 } })]);
    const [head, line] = csv.trimEnd().split('\r\n');
    expect(head).toContain('Chunking (continue)');
    expect(line).toMatch(/^flunders\.wardle\.example\.com\/v1beta1,wardle\.example\.com,v1beta1,Flunder,true,no,yes,/);
    expect(line).toMatch(/,"list refused \(list refused: 500, ""boom""\): the reflector retries the list after a backoff and the informer never syncs"$/);
  });
});

describe('withoutObjects', () => {
  it('an encoding served for an empty collection only is not a verdict on its objects; a refusal and a full list stay as they are', () => {
    const served = classifyAccept('protobuf', { status: 200, contentType: 'application/vnd.kubernetes.protobuf' });
    expect(withoutObjects('protobuf', served, 0).verdict).toBe('unknown');
    expect(withoutObjects('protobuf', served, 1)).toBe(served);
    expect(withoutObjects('protobuf', served, undefined)).toBe(served);
    const refused = classifyAccept('cbor', { status: 406, message: 'only the following media types are accepted: application/json' });
    expect(withoutObjects('cbor', refused, 0)).toBe(refused);
  });
});
