// Who the server thinks you are, and impersonation. A SelfSubjectReview answers with the user the
// request authenticated as, after impersonation (authentication.k8s.io/v1, GA in 1.28). Impersonation
// is asked with Impersonate-User (and -Group, -Uid, -Extra-*) headers; kube-apiserver authorizes it
// as the verb `impersonate` on `users` (`groups`, `uids`, `userextras/…`) for the requesting user
// (apiserver/pkg/endpoints/filters/impersonation.go) and refuses it with 403 otherwise. The explorer
// forwards the page's Impersonate-* headers as `kubectl --as` sends them (proxy/src/headers.ts,
// docs/proxy.md), so the lesson impersonates for real: allowed with your context, refused with the
// viewer's. Nothing is stored.
import { expectations, field, type KitExchange, type KitLesson, type StepContext } from '../kit';

const VIEWER_CONTEXT = 'local-viewer';
const SSR = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };
const userOf = (x: KitExchange) => field(x.response, 'status', 'userInfo') as { username?: string; groups?: string[] } | undefined;
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const mayImpersonate = (user: string) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'impersonate', resource: 'users', name: user } } });
const noSecondUser = (c: StepContext) => (c.memo.viewer ? undefined : `no second user (step 1): this explorer has no \`${VIEWER_CONTEXT}\` context.`);
const showReview = (x: KitExchange) => (x.path === SSR ? (userOf(x) ?? x.response) : (field(x.response, 'status') ?? x.response));

export const impersonation: KitLesson = {
  id: 'impersonation',
  topic: 'whoami',
  title: 'Who the server thinks you are, and impersonation',
  scope: 'read',
  paragraphs: [
    'Every request is authenticated first: a client certificate (its CN is the user, each O a group), a bearer token, or an exec plugin\'s credential become a user name, groups, a UID and extra fields, and everything after (authorization, admission, the audit log, API Priority and Fairness) works with that identity. A SelfSubjectReview asks the server what it made of your credentials; `system:authenticated` is added to every authenticated user\'s groups.',
    'A client may act as someone else with `Impersonate-User` (and `Impersonate-Group`, `Impersonate-Uid`, `Impersonate-Extra-*`). The server first authorizes the real user for the verb `impersonate` on `users` (and `groups`, …) with the target\'s name, refuses with 403 Forbidden if that is not allowed, and otherwise runs the request as the target; the audit event then records both, `user` and `impersonatedUser`.',
    'The explorer passes these headers from the page as `kubectl --as` sends them, with your context\'s own credentials: the server decides with your own RBAC, so a page gets nothing kubectl would not give the same user. The lesson impersonates the second user with your context, sends the same kind of request with the second user\'s context, which the server refuses, and then asks the server for both decisions.',
  ],
  needs: [],
  steps: [
    {
      id: 'whoami',
      title: 'Who am I?',
      text: `A SelfSubjectReview with your context, and one with the \`${VIEWER_CONTEXT}\` context (a second user of the local control plane).`,
      lookFor: 'HTTP 201 twice. Yours names your user and groups (on the local control plane `explorer-admin`, in `system:masters` and `system:authenticated`); the second names `explorer-viewer`, in `system:authenticated` only.',
      run: async (c) => {
        const mine = await c.send('POST', SSR, { body: review });
        c.memo.me = userOf(mine)?.username ?? '';
        try {
          const theirs = await c.sendAs(VIEWER_CONTEXT, 'POST', SSR, { body: review });
          c.memo.viewer = userOf(theirs)?.username ?? '';
          return [mine, theirs];
        } catch {
          return [mine];
        }
      },
      show: showReview,
      check: (xs, c) => {
        const { want, result } = expectations();
        for (const x of xs) want(x.status === 201 && (userOf(x)?.groups ?? []).includes('system:authenticated'), `HTTP ${x.status} ${msg(x)}`);
        want(!!c.memo.me, 'no user name in your review');
        want(!!c.memo.viewer && c.memo.viewer !== c.memo.me, `second user: ${c.memo.viewer || `no \`${VIEWER_CONTEXT}\` context`}`);
        return result;
      },
    },
    {
      id: 'impersonate-allowed',
      title: 'Impersonate-User, allowed',
      text: `The SelfSubjectReview with your context again, sent with \`Impersonate-User\` naming the second user.`,
      lookFor: 'HTTP 201 naming the second user (`explorer-viewer` on the local control plane), in `system:authenticated` only: the server checked that you may impersonate it, then ran the request as that user. Your own groups are gone: an impersonated user gets only the groups the request names in `Impersonate-Group`, plus `system:authenticated`.',
      blocked: noSecondUser,
      run: async (c) => [await c.send('POST', SSR, { body: review, headers: { 'Impersonate-User': c.memo.viewer! } })],
      show: showReview,
      check: ([x], c) => (x!.status === 201 && userOf(x!)?.username === c.memo.viewer && (userOf(x!)?.groups ?? []).join() === 'system:authenticated' ? [] : [`HTTP ${x!.status}, user ${userOf(x!)?.username} ${msg(x!)}`]),
    },
    {
      id: 'impersonate-refused',
      title: 'Impersonate-User, refused',
      text: `A SelfSubjectReview with the \`${VIEWER_CONTEXT}\` context, sent with \`Impersonate-User\` naming you.`,
      lookFor: 'HTTP 403 Forbidden, a Status whose message says `User "explorer-viewer" cannot impersonate …`: the server authorized the impersonation before anything else, and the second user has no `impersonate` verb. Older releases name the legacy check (`users "<you>" is forbidden: … cannot impersonate resource "users" in API group "" at the cluster scope`); newer ones, which try constrained impersonation first, name its verb on what the request asked for (`selfsubjectreviews.authentication.k8s.io is forbidden: … cannot impersonate-on:user-info:create resource "selfsubjectreviews" …`).',
      blocked: noSecondUser,
      run: async (c) => [await c.sendAs(VIEWER_CONTEXT, 'POST', SSR, { body: review, headers: { 'Impersonate-User': c.memo.me! } })],
      show: showReview,
      check: ([x], c) => (x!.status === 403 && msg(x!).includes(`User "${c.memo.viewer}" cannot impersonate`) ? [] : [`HTTP ${x!.status}: ${msg(x!)}`]),
    },
    {
      id: 'may-impersonate',
      title: 'Why: may I impersonate?',
      text: `SelfSubjectAccessReviews for the verb \`impersonate\` on \`users\`: you asking about the second user, and the second user asking about you.`,
      lookFor: 'HTTP 201 twice. Yours `allowed: true` where you may impersonate (as a cluster admin), with the RBAC binding that allows it in `reason`; the second user\'s `allowed: false`: the two decisions the server took in the last two steps.',
      blocked: noSecondUser,
      run: async (c) => [await c.send('POST', SSAR, { body: mayImpersonate(c.memo.viewer!) }), await c.sendAs(VIEWER_CONTEXT, 'POST', SSAR, { body: mayImpersonate(c.memo.me!) })],
      show: showReview,
      check: ([mine, theirs]) => {
        const { want, result } = expectations();
        want(mine!.status === 201 && field(mine!.response, 'status', 'allowed') === true, `you: HTTP ${mine!.status}, allowed ${String(field(mine!.response, 'status', 'allowed'))}`);
        want(theirs!.status === 201 && field(theirs!.response, 'status', 'allowed') !== true, `second user: HTTP ${theirs!.status}, allowed ${String(field(theirs!.response, 'status', 'allowed'))}`);
        return result;
      },
    },
  ],
};
