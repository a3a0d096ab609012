// Server-Side Apply as a controller uses it: a partial object with only the fields the controller
// decides, sent without reading first, always with force. The user's manager and the controller's
// meet on `spec.replicas` of a Deployment; every claim is read from the server's answers.
import { ownership } from '../exchange';
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { sleep } from '../../../lib/sleep';

const NAME = 'web';
const SCALER = 'lesson-scaler';
const deploy = (c: StepContext) => `/apis/apps/v1/namespaces/${encodeURIComponent(c.ns)}/deployments/${NAME}`;
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const owns = (x: KitExchange, manager: string) => ownership(x.response).filter((e) => e.manager === manager && e.operation === 'Apply').flatMap((e) => e.fields);
const causes = (x: KitExchange) => (field(x.response, 'details', 'causes') as { reason?: string; field?: string; message?: string }[] | undefined) ?? [];

/** alice's manifest: the whole Deployment, with or without `replicas`. */
const manifest = (replicas?: number, image = 'registry.k8s.io/pause:3.10') =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: NAME, labels: label('ssactl') },
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      selector: { matchLabels: { app: NAME } },
      template: { metadata: { labels: { app: NAME } }, spec: { containers: [{ name: NAME, image }] } },
    },
  });
/** The controller's intent: only `spec.replicas`, no resourceVersion, nothing it did not decide. */
const intent = (replicas: number) => JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: NAME }, spec: { replicas } });

const apply = (c: StepContext, manager: string, body: string, force = false) =>
  c.send('PATCH', `${deploy(c)}?fieldManager=${manager}${force ? '&force=true' : ''}`, { body, contentType: 'application/apply-patch+yaml' });

const show = (x: KitExchange) =>
  field(x.response, 'kind') === 'Status'
    ? x.response
    : { metadata: { resourceVersion: field(x.response, 'metadata', 'resourceVersion'), managedFields: ownership(x.response).filter((e) => e.operation === 'Apply') }, spec: { replicas: field(x.response, 'spec', 'replicas') } };

export const ssaController: KitLesson = {
  id: 'ssa-controller',
  topic: 'ssactl',
  title: 'Server-Side Apply in a controller: apply only what you decide, no read first, always force',
  scope: 'namespace',
  paragraphs: [
    'A controller that uses Server-Side Apply does not read the object, change it and write it back. It builds the few fields it is responsible for from what it observed, sends them as an apply patch under its own `fieldManager`, and sets `force=true`: the controller is the authority for those fields, so a conflict with another manager is settled in its favour and the field changes owner. Fields it leaves out are not touched, and no `resourceVersion` is sent, so a write by someone else in between is no reason to retry.',
    'Here alice applies a whole Deployment with `replicas: 1`, and a scaler, the manager `lesson-scaler`, wants 3. The steps send only apply patches (PATCH with `application/apply-patch+yaml`); the request list of each step shows there is no GET before them.',
  ],
  needs: [
    { verb: 'create', group: 'apps', resource: 'deployments', namespaced: true },
    { verb: 'patch', group: 'apps', resource: 'deployments', namespaced: true },
    { verb: 'get', group: 'apps', resource: 'deployments', namespaced: true },
  ],
  steps: [
    {
      id: 'user',
      title: 'alice applies the whole Deployment',
      text: 'alice applies `web` with `replicas: 1`, a selector and a pod template (the object does not exist yet: apply creates it).',
      lookFor: 'HTTP 201 and a `managedFields` entry for alice, operation `Apply`, owning `.spec.replicas` among the rest.',
      run: async (c) => [await apply(c, 'alice', manifest(1))],
      show,
      check: ([x]) => (x!.status === 201 && owns(x!, 'alice').includes('.spec.replicas') ? [] : [`HTTP ${x!.status} ${msg(x!)}; alice owns ${owns(x!, 'alice').join(', ')}`]),
    },
    {
      id: 'no-force',
      title: 'The scaler applies replicas: 3 without force',
      text: `\`${SCALER}\` applies a partial Deployment: \`apiVersion\`, \`kind\`, \`metadata.name\` and \`spec.replicas: 3\`, nothing else, no \`resourceVersion\`.`,
      lookFor: '409 Conflict with one cause, `FieldManagerConflict` at `.spec.replicas`, naming alice: the other manager is named, and nothing changed (replicas is still 1).',
      run: async (c) => [await apply(c, SCALER, intent(3)), await c.send('GET', deploy(c))],
      show,
      check: ([x, after]) => {
        const { want, result } = expectations();
        want(x!.status === 409 && causes(x!).some((k) => k.reason === 'FieldManagerConflict' && k.field === '.spec.replicas' && String(k.message).includes('"alice"')), `HTTP ${x!.status} ${JSON.stringify(causes(x!))}`);
        want(field(after!.response, 'spec', 'replicas') === 1, `replicas: ${String(field(after!.response, 'spec', 'replicas'))}`);
        return result;
      },
    },
    {
      id: 'force',
      title: 'The same intent with force=true',
      text: `\`${SCALER}\` applies the same partial Deployment with \`force=true\`.`,
      lookFor: `HTTP 200 and \`replicas: 3\`. \`managedFields\` now lists \`${SCALER}\` (Apply) owning \`.spec.replicas\`; alice no longer owns it, but keeps the selector and the template, which the scaler never mentioned.`,
      run: async (c) => [await apply(c, SCALER, intent(3), true)],
      show,
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 200 && field(x!.response, 'spec', 'replicas') === 3, `HTTP ${x!.status} ${msg(x!)}`);
        want(owns(x!, SCALER).join() === '.spec.replicas', `${SCALER} owns ${owns(x!, SCALER).join(', ')}`);
        want(!owns(x!, 'alice').includes('.spec.replicas') && owns(x!, 'alice').includes('.spec.selector'), `alice owns ${owns(x!, 'alice').join(', ')}`);
        return result;
      },
      view: (c) => ({ label: 'See the Deployment in the Ownership view', to: { view: 'ownership', namespace: c.ns, group: 'apps', version: 'v1', resource: 'deployments', name: NAME } }),
    },
    {
      id: 'again',
      title: 'The controller applies the same intent again',
      text: 'Once the Deployment controller has caught up (the lesson waits until `status.observedGeneration` equals `metadata.generation`), the scaler applies `replicas: 3` with force twice more, a second apart, as a controller does on every resync. The `resourceVersion` is not the measure here: the Deployment controller keeps writing `status`, and each of its writes moves it.',
      lookFor: 'HTTP 200 both times, the same `metadata.generation`, and the scaler\'s managedFields entry with the same `time` in both answers although a second passed: the server records a manager\'s time only when its apply changed something, so an apply that changes nothing leaves no trace, and a controller may apply its intent as often as it likes.',
      run: async (c) => {
        const reads: KitExchange[] = [];
        for (let i = 0; i < 60; i++) {
          const g = await c.send('GET', deploy(c));
          reads.push(g);
          if (g.status !== 200 || field(g.response, 'status', 'observedGeneration') === field(g.response, 'metadata', 'generation')) break;
          await sleep(500);
        }
        const first = await apply(c, SCALER, intent(3), true);
        // managedFields times have one-second resolution: a second apart, a rewritten time would differ.
        await sleep(1100);
        return [reads.at(-1)!, first, await apply(c, SCALER, intent(3), true)];
      },
      show,
      check: ([, a, b]) => {
        const generation = (x: KitExchange) => String(field(x.response, 'metadata', 'generation'));
        const time = (x: KitExchange) => ownership(x.response).find((e) => e.manager === SCALER && e.operation === 'Apply')?.time;
        const { want, result } = expectations();
        want(a!.status === 200 && b!.status === 200, `HTTP ${a!.status}, ${b!.status}`);
        want(generation(a!) === generation(b!), `generation ${generation(a!)}, then ${generation(b!)}`);
        want(time(a!) !== undefined && time(a!) === time(b!), `the scaler's time ${String(time(a!))}, then ${String(time(b!))}`);
        return result;
      },
    },
    {
      id: 'user-again',
      title: 'alice applies her old manifest, then one without replicas',
      text: 'alice applies her manifest unchanged (`replicas: 1`), then a new one that leaves `replicas` out and changes the image.',
      lookFor: 'First 409: the conflict now names `lesson-scaler` at `.spec.replicas`. Then HTTP 200: the new image is in, and `replicas` stays 3, owned by the scaler. When a controller manages a field, users take it out of their manifests.',
      run: async (c) => [await apply(c, 'alice', manifest(1)), await apply(c, 'alice', manifest(undefined, 'registry.k8s.io/pause:3.9'))],
      show,
      check: ([old, without]) => {
        const { want, result } = expectations();
        want(old!.status === 409 && causes(old!).some((k) => k.field === '.spec.replicas' && String(k.message).includes(`"${SCALER}"`)), `old manifest: HTTP ${old!.status} ${JSON.stringify(causes(old!))}`);
        want(without!.status === 200 && field(without!.response, 'spec', 'replicas') === 3, `without replicas: HTTP ${without!.status}, replicas ${String(field(without!.response, 'spec', 'replicas'))}`);
        want(field(without!.response, 'spec', 'template', 'spec', 'containers', 0, 'image') === 'registry.k8s.io/pause:3.9', 'the image did not change');
        want(owns(without!, SCALER).includes('.spec.replicas'), `${SCALER} owns ${owns(without!, SCALER).join(', ')}`);
        return result;
      },
    },
  ],
};
