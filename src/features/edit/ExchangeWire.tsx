// One exchange of a subresource panel, as it went over the wire: the request line and headers,
// the body, and the answer (cut at 3000 characters).
import { type Exchange, requestLine } from './request';

export function ExchangeWire({ ex }: { ex: Exchange }) {
  const r = ex.response;
  return (
    <details className="edit-exchange" open>
      <summary>
        {requestLine(ex.request)} → {r ? `HTTP ${r.status} ${r.statusText}` : `failed: ${ex.error}`}
      </summary>
      <pre className="edit-wire">{`${requestLine(ex.request)}\n${Object.entries(ex.request.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')}${ex.request.body ? `\n\n${ex.request.body}` : ''}`}</pre>
      {r && <pre className="edit-wire">{`HTTP ${r.status} ${r.statusText}\n\n${r.body.length > 3000 ? `${r.body.slice(0, 3000)}…` : r.body}`}</pre>}
    </details>
  );
}

