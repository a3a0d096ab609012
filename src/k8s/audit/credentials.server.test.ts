// No credential is ever in what the audit panel is given or what is saved (issue 46): a Secret
// (its data raw and base64, and stringData), a token request (serviceaccounts/token) and a
// TokenReview of that token go through the explorer server; the events the proxy's audit route
// answers for them, a saved recording with its audit events, and every audit file kube-apiserver
// wrote on disk hold none of those bytes. The events are there all the same (the check is not
// passed by an empty answer), at Metadata level.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { kubeFetch } from '../client';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { installRecordingHooks, recorder, toRecordingHar } from '../record';
import { auditIdOf, type AuditLookup, followAuditEvents, gatherAuditEvents, isFinal } from '.';

const ns = `audit-cred-${randomBytes(3).toString('hex')}`;
const RAW = `raw-${randomBytes(12).toString('hex')}`;
const STRING_DATA = `sd-${randomBytes(12).toString('hex')}`;

installRecordingHooks();

const send = async (method: string, path: string, body?: unknown) => {
  const res = await kubeFetch({ context: TEST_CONTEXT, method, path, headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: body === undefined ? null : JSON.stringify(body) });
  return { status: res.status, auditId: res.headers.get('Audit-Id') ?? '', json: (await res.json()) as Record<string, unknown> };
};

/** Every event of one request, as the panel gets it: followed until its last stage is in. */
async function panelEvents(auditId: string): Promise<AuditLookup> {
  let last: AuditLookup = { source: 'none', events: [] };
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 10_000);
  await followAuditEvents(TEST_CONTEXT, auditId, (l) => (last = l), stop.signal);
  clearTimeout(timer);
  return last;
}

beforeAll(async () => {
  useRealProxy();
  expect((await send('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
});
afterAll(async () => {
  recorder.clear();
  await send('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

describe('audit events and credentials', () => {
  it('keeps a Secret, a token request and a TokenReview out of the panel, the recording and the files on disk', async () => {
    recorder.start({ servers: { [TEST_CONTEXT]: 'https://local' } });
    const sent = [
      await send('POST', `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 's' }, data: { raw: Buffer.from(RAW).toString('base64') }, stringData: { sd: STRING_DATA } }),
      await send('GET', `/api/v1/namespaces/${ns}/secrets/s`),
      await send('GET', `/api/v1/namespaces/${ns}/secrets`),
      await send('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'sa' } }),
    ];
    const tokenRequest = await send('POST', `/api/v1/namespaces/${ns}/serviceaccounts/sa/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } });
    expect(tokenRequest.status).toBe(201);
    const token = (tokenRequest.json.status as { token: string }).token;
    const review = await send('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
    expect((review.json.status as { authenticated: boolean }).authenticated).toBe(true);
    sent.push(tokenRequest, review);
    recorder.stop();
    expect(sent.map((s) => s.status)).toEqual([201, 200, 200, 201, 201, 201]);

    const secrets = [RAW, Buffer.from(RAW).toString('base64'), STRING_DATA, Buffer.from(STRING_DATA).toString('base64'), token];
    const holdsNone = (what: string, text: string) => {
      for (const s of secrets) expect(text.includes(s), `${what} holds a credential`).toBe(false);
    };

    // What the panel is given: the proxy route's answers, each request's events complete.
    for (const s of sent) {
      const lookup = await panelEvents(s.auditId);
      expect(lookup.source).toBe('log');
      expect(isFinal(lookup.events), `${s.auditId} has its ResponseComplete`).toBe(true);
      // The policy's Metadata level for what carries a credential (a ServiceAccount does not).
      const uri = lookup.events[0]!.requestURI;
      if (!uri.endsWith('/serviceaccounts')) expect(lookup.events.map((e) => e.level), uri).toEqual(lookup.events.map(() => 'Metadata'));
      holdsNone(`the route's answer for ${lookup.events[0]!.requestURI}`, JSON.stringify(lookup));
    }

    // A saved recording, with the audit events gathered as the Save button gathers them.
    const contents = recorder.contents();
    const audit = await gatherAuditEvents(contents.exchanges);
    expect(Object.keys(audit).sort()).toEqual(sent.map((s) => s.auditId).sort());
    expect(contents.exchanges.map((x) => auditIdOf(x.response?.headers))).toEqual(sent.map((s) => s.auditId));
    holdsNone('the saved recording', JSON.stringify(toRecordingHar({ ...contents, audit }, { enabled: true, patterns: [] })));

    // The audit files on disk (the log and any rotated one).
    const dir = dirname(inject('controlPlane').auditLog!);
    const files = readdirSync(dir);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) holdsNone(`audit file ${f}`, readFileSync(join(dir, f), 'utf8'));
  });
});
