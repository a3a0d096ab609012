// The request composer: method, path (with completion), typed query parameters, Accept and
// Content-Type presets, other headers, body, the access check, the exact request and "copy as".
// Presentational: every edit is a DraftAction for the view's reducer. The parts are the panels of
// requestPanels.tsx; this file holds the form and its first row.
import type { AccessDecision, ResourceAttributes } from '../../k8s/access';
import type { WireFormatId } from '../../codecs/formats';
import type { EncodedBody } from './binaryBody';
import { type Draft, draftToRequest, METHODS } from './draft';
import type { DraftAction } from './draftReducer';
import { AccessNote, BodyField, CopyAsRow, MediaHeaders, OtherHeaders, ParamsFieldset } from './requestPanels';

export function RequestForm(props: {
  context: string;
  draft: Draft;
  dispatch: (a: DraftAction) => void;
  onSend: () => void;
  onStop?: () => void;
  completions: string[];
  server: string | undefined;
  /** The kubeconfig file kubectl needs to find this context, when it would not by itself. */
  kubeconfig?: string;
  attrs: ResourceAttributes | null;
  access: AccessDecision | undefined;
  /** Why the path cannot be sent as shown (the browser would rewrite it), if it cannot. */
  refused?: string | null;
  /** How the body goes out: as typed, or encoded as Protobuf/CBOR from the object typed. */
  encoded?: EncodedBody;
  binaryType?: WireFormatId;
}) {
  const { context, draft, dispatch, onSend, onStop, completions, server, kubeconfig, attrs, access, refused, encoded, binaryType } = props;
  const request = draftToRequest(draft);

  return (
    <form
      className="panel stack"
      aria-label="Request"
      onSubmit={(e) => {
        e.preventDefault();
        onSend();
      }}
      onKeyDown={(e) => {
        // Ctrl/Cmd+Enter sends from anywhere in the form, the body editor included.
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          onSend();
        }
      }}
    >
      <div className="row">
        <select aria-label="Method" value={draft.method} onChange={(e) => dispatch({ type: 'method', method: e.target.value })}>
          {METHODS.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <input
          aria-label="Path"
          data-main-action
          list="console-paths"
          value={draft.path}
          spellCheck={false}
          style={{ flex: 1, minWidth: 240, fontFamily: 'var(--mono)' }}
          onChange={(e) => dispatch({ type: 'pathInput', value: e.target.value })}
          onBlur={() => dispatch({ type: 'pathCommit' })}
        />
        <datalist id="console-paths">
          {completions.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        <button type="submit" className="primary" title="Ctrl+Enter" disabled={!!refused}>
          Send
        </button>
        {onStop && (
          <button type="button" className="danger" onClick={onStop}>
            Stop
          </button>
        )}
      </div>
      {refused && (
        <p className="error small" role="alert" aria-label="Path refused">
          Not sent: {refused}
        </p>
      )}

      <ParamsFieldset draft={draft} dispatch={dispatch} />
      <MediaHeaders context={context} draft={draft} dispatch={dispatch} />
      <OtherHeaders draft={draft} dispatch={dispatch} />
      {draft.method !== 'GET' && draft.method !== 'HEAD' && <BodyField draft={draft} dispatch={dispatch} onSend={onSend} encoded={encoded} binaryType={binaryType} />}
      {attrs && access && !access.allowed && <AccessNote context={context} attrs={attrs} access={access} />}
      <CopyAsRow request={request} context={context} server={server} kubeconfig={kubeconfig} />
    </form>
  );
}
