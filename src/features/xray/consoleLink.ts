// "Open in console": an exchange of another client as the console's prefilled request (the
// console's own URL form, draftToExtra), to send again with the explorer's credentials.
import { draftToExtra, requestToDraft } from '../console';
import type { Route } from '../../routing';
import type { RecordedExchange } from '../../k8s/record';

/**
 * Headers that belong to the connection or the credentials, not to the request's meaning: the
 * proxy sets its own (the context's credentials, Host, Content-Length, the browser's
 * Accept-Encoding), and the browser refuses a page that sets most of them (forbidden header names).
 */
const NOT_RESENT = new Set(['authorization', 'proxy-authorization', 'cookie', 'host', 'content-length', 'accept-encoding', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'expect']);

export interface ConsoleTarget {
  to: Partial<Route> & { extra: Record<string, string> };
  /** Why what the console gets is not all the client sent (a binary body), or undefined. */
  caveat?: string;
}

export function consoleTarget(x: RecordedExchange): ConsoleTarget {
  const headers = x.request.headers.filter(([k]) => !NOT_RESENT.has(k.toLowerCase()));
  const binary = Boolean(x.request.bodyBytes?.length);
  const draft = requestToDraft({ ...x.request, headers, ...(binary ? { body: '' } : {}) });
  return {
    to: { view: 'console', context: x.context, extra: draftToExtra(draft) },
    ...(binary ? { caveat: `the client sent a binary body (${x.request.bodyBytes!.length} bytes): the console opens without it` } : {}),
  };
}
