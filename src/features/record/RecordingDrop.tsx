// Opening a recording on the Welcome page: drop the file, pick it, or open the sample that ships
// with the explorer. The replay then answers every view; nothing is sent to any cluster.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { K8S_QUERY_PREFIX } from '../../k8s/cluster';
import { landingOf, type ReplaySession } from '../../k8s/record';
import { navigate } from '../../routing';
import { openRecording, openRecordingFrom } from './open';

export const SAMPLE_RECORDING = '/recordings/sample.har';

export function RecordingDrop() {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string>();
  const [over, setOver] = useState(false);
  const opened = (session: ReplaySession) => {
    // What the live cluster answered must not show in the replay, nor the other way round.
    queryClient.removeQueries({ queryKey: K8S_QUERY_PREFIX });
    void queryClient.invalidateQueries();
    // Where the recorded content is: the list it recorded. The Welcome page's own requests are
    // rarely in a recording, and each would only say "not in the recording".
    const land = landingOf(session.recording);
    if (!land) navigate({ context: session.contexts().current, view: 'welcome' });
    else {
      const r = land.resource;
      navigate({ context: land.context, view: 'lists', namespace: r.namespace, group: r.group, version: r.version, resource: r.resource, extra: land.labelSelector ? { labelSelector: land.labelSelector } : {} }, { keepExtra: false });
    }
  };
  const openFile = async (file: File) => {
    setProblem(undefined);
    try {
      let json: unknown;
      try {
        json = JSON.parse(await file.text());
      } catch (e) {
        throw new Error(`not JSON, so not a recording (cut short?): ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      opened(openRecording(json, 'file'));
    } catch (e) {
      setProblem(`${file.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <section
      className={`panel rec-drop${over ? ' rec-drop-over' : ''}`}
      aria-labelledby="rec-drop"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const file = e.dataTransfer.files[0];
        if (file) void openFile(file);
      }}
      data-testid="recording-drop"
    >
      <h2 id="rec-drop">Open a recording</h2>
      <p>
        Drop a recording (<code>.har</code>, saved with ● Record) here, or{' '}
        <label className="rec-pick">
          pick one
          <input
            type="file"
            accept=".har,application/json"
            aria-label="Recording file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void openFile(file);
            }}
          />
        </label>
        , or{' '}
        <button
          type="button"
          className="linklike"
          onClick={() => {
            setProblem(undefined);
            openRecordingFrom(SAMPLE_RECORDING).then(
              (s) => opened(s),
              (e: unknown) => setProblem(e instanceof Error ? e.message : String(e)),
            );
          }}
        >
          open the sample recording
        </button>
        . A replay is read-only and sends nothing to any cluster.
      </p>
      {problem && (
        <p role="alert" className="rec-warn">
          Could not open it: {problem}
        </p>
      )}
    </section>
  );
}
