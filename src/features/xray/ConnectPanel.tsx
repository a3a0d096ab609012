// "Connect a client": the long-lived endpoint's kubeconfig for a program that is not one command
// (a controller in an IDE, a notebook). Shown as usable only when the proxy said the endpoint is
// listening (XRAY_INFO_PATH); the file is fetched with the page's token, which a plain link cannot send.
import { useMutation, useQuery } from '@tanstack/react-query';
import { proxyFetch } from '../../k8s/client';
import { downloadText } from '../../lib/download';
import { ErrorBox } from '../../ui/ErrorBox';
import { XRAY_KUBECONFIG_PATH } from '../../../protocol/xray';
import { xrayInfoQuery } from './queries';

/** The name the download is saved under, so that the `export` line names the same file. */
const KUBECONFIG_FILE = 'kube-api-explorer-xray.kubeconfig';

export function ConnectPanel() {
  const info = useQuery(xrayInfoQuery());
  const download = useMutation({
    mutationFn: async () => {
      const res = await proxyFetch(XRAY_KUBECONFIG_PATH, { accept: 'application/yaml' });
      downloadText(KUBECONFIG_FILE, await res.text(), 'application/yaml');
    },
  });
  return (
    <details className="panel" aria-label="Connect a client">
      <summary>Connect a client</summary>
      {info.isPending && <p className="muted">Asking the explorer whether its endpoint is listening…</p>}
      {info.error && <ErrorBox error={info.error} title="Could not ask the explorer about its X-ray endpoint" />}
      {info.data && !info.data.enabled && <p aria-label="Endpoint state">This explorer runs without the long-lived X-ray endpoint (a replay, or started without it): run one command through it with <code>kubectl api-explorer xray -- COMMAND</code>.</p>}
      {info.data?.enabled && (
        <div className="stack">
          <p aria-label="Endpoint state">
            The endpoint is listening at <code>{info.data.url}</code>. Any client that reads a kubeconfig can use it while this explorer runs: its requests appear here,
            forwarded with your credentials.
          </p>
          <div className="row">
            <button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
              Download kubeconfig
            </button>
            <code aria-label="Export line">export KUBECONFIG=$HOME/Downloads/{KUBECONFIG_FILE}</code>
          </div>
          <p className="small">
            Or run one command as a run of its own, shown here live: <code>kubectl api-explorer xray --attach $HOME/Downloads/{KUBECONFIG_FILE} -- COMMAND</code>.
          </p>
          <p className="muted small">The kubeconfig holds the endpoint’s token (valid until the explorer stops), not your credentials; its contexts have the names of yours.</p>
          {download.error && <ErrorBox error={download.error} title="Could not download the kubeconfig" />}
        </div>
      )}
    </details>
  );
}
