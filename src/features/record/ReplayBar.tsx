// The replay's timeline: where the clock is in the recording, play, pause, speed, and a link to
// this moment. Watch panes follow the clock (k8s/record/replay.ts).
import { useState, useSyncExternalStore } from 'react';
import type { ReplaySession } from '../../k8s/record';
import { momentLink } from './open';

const SPEEDS = [0.25, 0.5, 1, 2, 4, 10];

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function ReplayBar({ session, onLeave }: { session: ReplaySession; onLeave: () => void }) {
  const snap = useSyncExternalStore(
    (cb) => session.subscribe(cb),
    () => session.snapshot(),
  );
  const [copied, setCopied] = useState(false);
  const at = snap.position - snap.start;
  const length = snap.end - snap.start;
  const framesSoFar = snap.frameTimes.filter((t) => t <= snap.position).length;
  return (
    <div className="replay-bar" role="region" aria-label="Replay">
      <strong>Replay</strong>
      <span className="small muted" title="Nothing is sent to any cluster while a recording is replayed">
        read-only, no cluster
      </span>
      <button type="button" onClick={() => (snap.playing ? session.pause() : session.play())} aria-label={snap.playing ? 'Pause' : 'Play'}>
        {snap.playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      <input
        type="range"
        aria-label="Replay time"
        min={0}
        max={length}
        step={1}
        value={at}
        onChange={(e) => session.seek(snap.start + Number(e.target.value))}
      />
      <span className="small" data-testid="replay-time">
        {seconds(at)} / {seconds(length)} · {framesSoFar} of {snap.frameTimes.length} watch events
      </span>
      {snap.marks.length > 0 && (
        <select
          aria-label="Jump to a mark"
          value=""
          onChange={(e) => {
            if (e.target.value !== '') session.seek(Number(e.target.value));
          }}
        >
          <option value="">jump to…</option>
          {snap.marks.map((m, i) => (
            <option key={i} value={m.at}>
              {seconds(m.at - snap.start)} {m.label}
            </option>
          ))}
        </select>
      )}
      <label className="small">
        speed{' '}
        <select aria-label="Replay speed" value={snap.speed} onChange={(e) => session.setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        title={snap.source === 'file' ? 'A dropped file has no address: the link opens this moment when the same file is opened with --replay' : 'Copy a link that opens this recording at this moment, in this view'}
        onClick={() => {
          void navigator.clipboard?.writeText(momentLink(snap.source === 'file' ? 'server' : snap.source, at, location.search)).then(() => setCopied(true));
          setTimeout(() => setCopied(false), 2000);
        }}
      >
        {copied ? 'Link copied' : 'Copy link to this moment'}
      </button>
      <button type="button" onClick={onLeave}>
        Leave replay
      </button>
    </div>
  );
}
