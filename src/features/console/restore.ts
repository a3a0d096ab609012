// What a console link brings back beyond the form. A read that is not a watch changes nothing on
// the server and is cheap to send again, so once one has been sent the URL says so (`send=1`) and
// opening that URL sends it again and shows the response. A write is never sent on its own, whatever
// the URL says (a link is not a request the user has seen): the form is restored with a note.
import { isWatchRequest } from '../../../protocol/watch';
import type { ExchangeRequest } from '../../k8s/client';
import { draftFromExtra, draftToRequest } from './draft';

/** The URL key that says "the request in this URL was sent; show its response". */
export const SENT_KEY = 'send';

/**
 * Path segments of requests that reach past the API server (a pod's process, a service, a node's
 * kubelet): a GET there is whatever that endpoint makes of it, so a link never sends one on its own
 * (the proxy refuses them unless started with --allow-exec).
 */
const PASSTHROUGH = new Set(['exec', 'attach', 'portforward', 'proxy', 'redirect']);

function passesThrough(path: string): boolean {
  // The API server routes on the decoded path (Go's URL.Path): `%65xec` is `exec` there.
  return path
    .split('?')[0]!
    .split('/')
    .some((s) => {
      let segment = s;
      try {
        segment = decodeURIComponent(s);
      } catch {
        // Not valid percent-encoding: the server refuses it; judged as written.
      }
      return PASSTHROUGH.has(segment.toLowerCase());
    });
}

/** A request the console may send again on its own from a link: GET or HEAD of the API itself, not a watch (a stream, not an answer). */
export function refetchable(req: ExchangeRequest): boolean {
  const method = req.method.toUpperCase();
  return (method === 'GET' || method === 'HEAD') && !isWatchRequest(req.path, method) && !passesThrough(req.path);
}

/** Same request as far as the server sees it: method, path with query, headers, body. */
export function sameRequest(a: ExchangeRequest, b: ExchangeRequest): boolean {
  return a.method.toUpperCase() === b.method.toUpperCase() && a.path === b.path && JSON.stringify(a.headers) === JSON.stringify(b.headers) && (a.body ?? '') === (b.body ?? '');
}

/** The request a URL's console keys describe. */
export function requestOfExtra(extra: Record<string, string>): ExchangeRequest {
  return draftToRequest(draftFromExtra(extra));
}

export type RestorePlan =
  /** Nothing to bring back: the form only. */
  | { kind: 'form' }
  /** A read sent before: send it again (or show the one this page already holds). */
  | { kind: 'refetch'; request: ExchangeRequest }
  /** A request from the URL that is not sent on its own, and why. */
  | { kind: 'held'; method: string; why: 'write' | 'watch' | 'passthrough' };

/** What opening the console on this URL does (decided once, when the view opens). */
export function restorePlan(extra: Record<string, string>): RestorePlan {
  if (!('m' in extra) && !('p' in extra)) return { kind: 'form' };
  const request = requestOfExtra(extra);
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') return { kind: 'held', method, why: 'write' };
  if (extra[SENT_KEY] !== '1') return { kind: 'form' };
  if (refetchable(request)) return { kind: 'refetch', request };
  if (passesThrough(request.path)) return { kind: 'held', method, why: 'passthrough' };
  return isWatchRequest(request.path, method) ? { kind: 'held', method, why: 'watch' } : { kind: 'form' };
}

/** The note shown for a request the link restored but did not send. */
export function heldNote(plan: Extract<RestorePlan, { kind: 'held' }>): string {
  if (plan.why === 'write') return `This link fills in a ${plan.method} but does not send it: the console never sends a write on its own. Check the form, then press Send.`;
  if (plan.why === 'passthrough')
    return `This link fills in a ${plan.method} that goes past the API server (exec, attach, portforward or proxy) but does not send it: what it does is up to the endpoint it reaches. Check the form, then press Send.`;
  return 'This link fills in a watch but does not open it: a watch is a stream, not an answer to show again. Press Send to start it.';
}
