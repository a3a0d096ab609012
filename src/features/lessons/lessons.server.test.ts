// Every lesson's every step, run with the kit's own functions (kitSend, kitWatch) through the real
// explorer server against the real local control plane, in the order a learner runs them: each
// step must run (none blocked) and its check must find the server answering as the lesson says.
// This is the fast CI run of all lesson texts (e2e/lesson-kit.spec.ts adds what the page shows).
// The release comes from KUBE_VERSION as for every integration file; lessons that say they need a
// newer release (`since`) are skipped on an older one.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { testCluster } from '../../../proxy/cluster/cluster.testkit';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { statusOf } from '../../k8s/client';
import { explainStatus } from '../../ui/statusExplain';
import { auditLogOf } from '../../k8s/audit/auditLog.testkit';
import { latencyBreakdown, replayAdmission } from '../../k8s/audit';
import { KIT_LESSONS } from './catalog';
import { checkStep, type KitExchange, kitSend, kitWatch, type StepContext } from './kit';
import { lessonApplies } from './releases';

const cp = inject('controlPlane');
const cluster = testCluster(cp);
const made: string[] = [];

beforeAll(() => {
  // Node 20 has no WebSocket: the `ws` package stands in for the browser's (the watch goes over the mux).
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
  useRealProxy();
});

afterAll(async () => {
  for (const ns of made) await cluster.request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

/** A step context that also keeps every exchange it sent, in `sent`, to compare with what the steps return (and the page shows). */
function context(ns: string): StepContext & { sent: KitExchange[] } {
  const sent: KitExchange[] = [];
  const kept = async (x: Promise<KitExchange>) => {
    const v = await x;
    sent.push(v);
    return v;
  };
  return {
    context: TEST_CONTEXT,
    ns,
    memo: {},
    sent,
    send: (m, p, o) => kept(kitSend(TEST_CONTEXT, m, p, o)),
    sendAs: (other, m, p, o) => kept(kitSend(other, m, p, o)),
    watch: (p, o) => kept(kitWatch(TEST_CONTEXT, p, o)),
  };
}

/**
 * The writes a lesson sent that it does not return: the page shows a step's returned exchanges (and
 * the cleanup's), so a write missing from them is one the learner never saw. Reads (a poll until an
 * object is gone) may stay unshown; every write (a create, a dry run, a patch, a delete) is shown.
 */
function hiddenWrites(sent: KitExchange[], shown: KitExchange[]): string[] {
  const seen = new Set(shown);
  return sent.filter((x) => x.method !== 'GET' && x.method !== 'HEAD' && !seen.has(x)).map((x) => `${x.method} ${x.path} → ${x.status}`);
}

/** Status explanations for what the force-deletion lesson meets: the corrupt object and the watch cache that cannot load it. */
function explainedAs(x: KitExchange): string {
  return explainStatus(statusOf(x.status, typeof x.response === 'string' ? x.response : JSON.stringify(x.response))).rule;
}

describe('every lesson, every step, against the real server', () => {
  for (const lesson of KIT_LESSONS) {
    it.skipIf(!lessonApplies(lesson, cp.kubernetesVersion))(`${lesson.id}: ${lesson.steps.map((s) => s.id).join(', ')}`, { timeout: 300_000 }, async () => {
      let ns = '';
      if (lesson.scope !== 'read') {
        ns = `lesson-${lesson.topic}-${randomBytes(3).toString('hex')}`;
        const r = await cluster.request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns, labels: { 'explorer.lessons/lesson': lesson.topic } } });
        expect(r.status, r.body).toBe(201);
        made.push(ns);
      }
      const c = context(ns);
      const audit = auditLogOf(cp.dir);
      try {
        for (const step of lesson.steps) {
          expect(step.blocked?.(c), `${lesson.id}/${step.id} is blocked`).toBeUndefined();
          c.sent.length = 0;
          const xs = await step.run(c);
          expect(checkStep(step, xs, c).join(' · '), `${lesson.id}/${step.id}: the server answered otherwise`).toBe('');
          expect(hiddenWrites(c.sent, xs), `${lesson.id}/${step.id}: writes the page does not show`).toEqual([]);
          if (lesson.id === 'webhook-side-effects' && step.id === 'fail') {
            // The dry run refused because the webhook could not be called is explained as that, with this lesson.
            const refused = xs.find((x) => x.status === 500);
            expect(refused && explainedAs(refused)).toBe('webhook-unreachable');
          }
          if (lesson.id === 'admission-order' && step.id === 'mutated-then-validated') {
            // The audit event of the create: the stamp is between the request's object and the stored one, and no annotation names the policy.
            const event = await audit.complete(xs.at(-1)!.responseHeaders['audit-id']!);
            expect(replayAdmission(event)?.unattributed).toContainEqual({ op: 'add', path: '/metadata/labels/stamped-by', value: 'policy' });
            expect(Object.keys(event.annotations ?? {}).filter((k) => k.includes('mutation'))).toEqual([]);
          }
          if (lesson.id === 'priority-and-fairness' && step.id === 'queued') {
            // Each refused list waited in the queue: its audit event says how long, within the total.
            for (const x of xs.filter((x) => x.status === 429)) {
              const b = latencyBreakdown(await audit.complete(x.responseHeaders['audit-id']!));
              const wait = b.parts.find((p) => p.key === 'apf-queue-wait');
              expect(wait, JSON.stringify(b)).toBeDefined();
              expect(wait!.ms).toBeLessThanOrEqual(b.total!.ms);
            }
          }
          if (lesson.id === 'force-deletion' && step.id === 'corrupt') {
            // The GET of the undecodable object (500) and the list of its type (429) are explained as a corrupt object / a cache still loading.
            const failed = xs.filter((x) => x.status === 500 || x.status === 429);
            expect(failed.length).toBeGreaterThan(0);
            for (const x of failed) expect(['corrupt-object', 'cache-initializing']).toContain(explainedAs(x));
          }
        }
      } finally {
        if (lesson.cleanup) {
          c.sent.length = 0;
          const removed = await lesson.cleanup(c);
          expect(hiddenWrites(c.sent, removed), `${lesson.id}: cleanup writes the page does not show`).toEqual([]);
        }
      }
    });
  }
});
