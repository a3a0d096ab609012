// The request console: compose any request, send it through the proxy unchanged, and inspect the
// exact exchange. Watches stream (the body is read as it arrives) until stopped. The state and its
// wiring are useConsole.ts; the draft's rules are in draftReducer.ts, the panels in
// RequestForm.tsx, HistoryPanel.tsx and ComparisonPanel.tsx.
import { pathProblem } from '../../k8s/paths';
import type { Route } from '../../routing';
import { ComparisonPanel } from './ComparisonPanel';
import { requestToDraft } from './draft';
import { ExchangeView } from './ExchangeView';
import { AuditPanel } from '../audit';
import { HistoryPanel } from './HistoryPanel';
import { RequestForm } from './RequestForm';
import { heldNote } from './restore';
import { useConsole } from './useConsole';

export function ConsoleView({ route, context }: { route: Route; context: string }) {
  const c = useConsole(route, context);
  const { draft, dispatch, current, plan, compared } = c;
  return (
    <section className="stack" aria-label="Request console">
      <h2>Request console</h2>
      <RequestForm
        context={context}
        draft={draft}
        dispatch={dispatch}
        onSend={() => void c.send()}
        onStop={c.streamingId ? c.stop : undefined}
        completions={c.completions}
        server={c.servers[context]}
        kubeconfig={c.kubeconfig}
        attrs={c.attrs}
        access={c.access}
        refused={pathProblem(c.request.path)}
        encoded={c.encoded}
        binaryType={c.binaryType}
      />
      {plan.kind === 'held' && !current && (
        <p className="warning-list" role="note" aria-label="Not sent from the link">
          {heldNote(plan)}
        </p>
      )}
      <div className="split-aside">
        <section className="panel" aria-label="Response">
          {current ? (
            <>
              <ExchangeView exchange={current} streaming={current.id === c.streamingId} />
              {current.response && <AuditPanel key={current.id} context={current.context} headers={current.response.headers} open />}
            </>
          ) : (
            <p className="muted">Send a request to see the exchange.</p>
          )}
        </section>
        <HistoryPanel
          context={context}
          exchanges={c.exchanges}
          servers={c.servers}
          currentId={c.currentId}
          onSelect={c.setCurrentId}
          compare={c.compare}
          onCompare={c.setCompare}
          onRerun={(r) => {
            dispatch({ type: 'replace', draft: requestToDraft(r) });
            void c.send(r);
          }}
        />
      </div>
      {compared.length === 2 && <ComparisonPanel older={compared[0]!} newer={compared[1]!} />}
    </section>
  );
}
