// POST /proxy/credentials/cancel?context=NAME and /proxy/credentials/retry?context=NAME: the page's
// Cancel (stop the credential plugin run under way for the context's user; the requests waiting
// for it fail) and Try again (forget the last failure: the next request runs the plugin at once).
// Reached only through the door (Host, Origin, token) like every /proxy/ endpoint.
import { ProxyError } from '../errors';
import type { JsonAction } from '../routes';
import type { ExecCredentials } from './exec';

function contextOf(query: URLSearchParams): string {
  const context = query.get('context');
  if (!context) throw new ProxyError(400, 'BadRequest', 'InvalidPath', 'the context= parameter is missing');
  return context;
}

export function credentialActions(exec: ExecCredentials): Record<string, JsonAction> {
  return {
    '/proxy/credentials/cancel': (query) => ({ cancelled: exec.cancel(contextOf(query)) }),
    '/proxy/credentials/retry': (query) => {
      exec.retry(contextOf(query));
      return { retry: true };
    },
  };
}
