// The record switch in the top bar: start, a live counter (bytes against the limit, exchanges),
// stop, then save to one file (redacted unless the user opts out, with a warning) or discard.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { K8S_QUERY_PREFIX } from '../../k8s/cluster';
import { type RecorderSnapshot, recorder, toRecordingHar } from '../../k8s/record';
import { formatBytes, loadPatterns, savePatterns } from './settings';
import './record.css';
import { downloadText } from '../../lib/download';
import { gatherAuditEvents } from '../../k8s/audit';

function useRecorder(): RecorderSnapshot {
  return useSyncExternalStore(
    (cb) => recorder.subscribe(cb),
    () => recorder.snapshot(),
  );
}

/** Writes the recording to a file the browser downloads. */
export async function saveRecording(opts: { redact: boolean; patterns: string[] }): Promise<{ name: string; bytes: number }> {
  const contents = recorder.contents();
  // The server's view of each exchange travels with it (issue 46), redacted like the bodies.
  const audit = await gatherAuditEvents(contents.exchanges);
  const har = toRecordingHar({ ...contents, audit }, { enabled: opts.redact, patterns: opts.patterns });
  const text = JSON.stringify(har, null, 1);
  const name = `kube-api-explorer-${new Date(recorder.contents().startedAt).toISOString().replace(/[:.]/g, '-')}.har`;
  downloadText(name, text, 'application/json');
  return { name, bytes: text.length };
}

export function RecordControl({ servers }: { servers: Record<string, string> }) {
  const snap = useRecorder();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [redact, setRedact] = useState(true);
  const [patterns, setPatterns] = useState(loadPatterns);
  const [saved, setSaved] = useState<string>();

  // The recording lives in this page's memory: a reload or a closed tab would lose it, so the
  // browser asks first while it runs, and after it stopped until it is saved or discarded.
  const unsaved = snap.state === 'recording' || (snap.state === 'stopped' && snap.exchanges > 0 && saved === undefined);
  useEffect(() => {
    if (!unsaved) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers ask only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsaved]);

  const counter = `${formatBytes(snap.bytes)} of ${formatBytes(snap.limitBytes)} · ${snap.exchanges} exchange${snap.exchanges === 1 ? '' : 's'}`;
  return (
    <span className="rec">
      {snap.state === 'recording' ? (
        <>
          <button type="button" className="rec-on" aria-pressed="true" onClick={() => recorder.stop()} title="Stop recording">
            ■ Stop recording
          </button>
          <span className="small" role="status" aria-label="Recording size">
            {counter}
          </span>
        </>
      ) : (
        <button
          type="button"
          aria-pressed="false"
          onClick={() => {
            setSaved(undefined);
            recorder.start({ servers });
            // Cached answers (discovery, the object on screen) were fetched before: forgotten, the
            // views ask again and the recording holds what a replay needs to show them.
            queryClient.removeQueries({ queryKey: K8S_QUERY_PREFIX });
            void queryClient.invalidateQueries({ queryKey: K8S_QUERY_PREFIX });
          }}
          title="Record every exchange of this tab with the cluster (console, lists, watches, writes), to save as one file"
        >
          ● Record
        </button>
      )}
      {snap.state === 'stopped' && (
        <>
          <span className="small" role="status" aria-label="Recording size">
            {snap.full ? 'size limit reached: ' : 'recorded: '}
            {counter}
          </span>
          <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            Save…
          </button>
        </>
      )}
      {open && snap.state === 'stopped' && (
        <div className="rec-panel" role="dialog" aria-label="Save the recording">
          <label>
            <input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} /> Redact credentials (Secret data, tokens, Authorization and cookie headers)
          </label>
          {!redact && (
            <p className="rec-warn" role="alert">
              The file will hold every Secret value, token and header this tab exchanged with the cluster. Anyone who gets the file gets them.
            </p>
          )}
          <label className="rec-patterns">
            Also replace (one regular expression a line; kept in this browser):
            <textarea
              aria-label="Patterns to redact"
              rows={3}
              value={patterns.join('\n')}
              onChange={(e) => {
                const next = e.target.value.split('\n');
                setPatterns(next);
                savePatterns(next);
              }}
            />
          </label>
          <div className="rec-actions">
            <button
              type="button"
              onClick={() => {
                void saveRecording({ redact, patterns: redact ? patterns.filter((p) => p.trim()) : [] }).then((r) => {
                  setSaved(`${r.name} (${formatBytes(r.bytes)})`);
                  setOpen(false);
                });
              }}
            >
              Save file
            </button>
            <button
              type="button"
              onClick={() => {
                recorder.clear();
                setOpen(false);
              }}
            >
              Discard
            </button>
          </div>
        </div>
      )}
      {saved && snap.state !== 'recording' && <span className="small muted">saved {saved}</span>}
    </span>
  );
}
