// Every lesson's every step, run with the kit's own functions (kitSend, kitWatch) through the real
// explorer server against the real local control plane, in the order a learner runs them: each
// step must run (none blocked) and its check must find the server answering as the lesson says.
// This is the fast CI run of all lesson texts (e2e/lesson-kit.spec.ts adds what the page shows).
// The release comes from KUBE_VERSION as for every integration file; lessons that say they need a
// newer release (`since`) are skipped on an older one.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { testCluster } from '../../../proxy/cluster/testing';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/testing';
import { statusOf } from '../../k8s/client';
import { explainStatus } from '../../ui/statusExplain';
import { KIT_LESSONS } from './catalog';
import { type KitExchange, kitSend, kitWatch, type StepContext } from './kit';
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

function context(ns: string): StepContext {
  return {
    context: TEST_CONTEXT,
    ns,
    memo: {},
    send: (m, p, o) => kitSend(TEST_CONTEXT, m, p, o),
    sendAs: (other, m, p, o) => kitSend(other, m, p, o),
    watch: (p, o) => kitWatch(TEST_CONTEXT, p, o),
  };
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
      try {
        for (const step of lesson.steps) {
          expect(step.blocked?.(c), `${lesson.id}/${step.id} is blocked`).toBeUndefined();
          const xs = await step.run(c);
          expect(step.check(xs, c).join(' · '), `${lesson.id}/${step.id}: the server answered otherwise`).toBe('');
          if (lesson.id === 'webhook-side-effects' && step.id === 'fail') {
            // The dry run refused because the webhook could not be called is explained as that, with this lesson.
            const refused = xs.find((x) => x.status === 500);
            expect(refused && explainedAs(refused)).toBe('webhook-unreachable');
          }
          if (lesson.id === 'force-deletion' && step.id === 'corrupt') {
            // The GET of the undecodable object (500) and the list of its type (429) are explained as a corrupt object / a cache still loading.
            const failed = xs.filter((x) => x.status === 500 || x.status === 429);
            expect(failed.length).toBeGreaterThan(0);
            for (const x of failed) expect(['corrupt-object', 'cache-initializing']).toContain(explainedAs(x));
          }
        }
      } finally {
        if (lesson.cleanup) await lesson.cleanup(c);
      }
    });
  }
});
