// The watch pane's state badge and its staleness note ("last event or bookmark 12 s ago").
import { useEffect, useState } from 'react';
import type { PaneSnapshot } from '../../k8s/watch';

/** Re-renders its caller every `ms` (for texts like "12 s ago"). */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/** Silence after which a watch with bookmarks no longer counts as live: a bookmark is overdue. */
const BOOKMARK_OVERDUE_MS = 70_000;

/**
 * The state the badge shows. "connecting" until the server's response headers arrive, "watching"
 * only after them, and "silent" once a watch with bookmarks has heard nothing (no event, no
 * bookmark) past the interval its bookmarks should come at, counted from when the stream opened.
 */
export function badgeState(snap: Pick<PaneSnapshot, 'state' | 'lastHeardAt' | 'idleTimeoutMs'>, now: number): { text: string; className: string } {
  if (snap.state === 'watching' && snap.idleTimeoutMs !== undefined && snap.lastHeardAt !== undefined && now - snap.lastHeardAt > Math.min(BOOKMARK_OVERDUE_MS, snap.idleTimeoutMs)) {
    return { text: 'silent', className: 'state-silent' };
  }
  const text = snap.state === 'backoff' ? 'reconnecting' : snap.state === 'idle' ? 'starting' : snap.state;
  return { text, className: `state-${snap.state}` };
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}

export function StateBadge({ snap }: { snap: PaneSnapshot }) {
  const now = useNow(1000);
  const { text, className } = badgeState(snap, now);
  const staleness =
    snap.state === 'backoff' && snap.retryAt !== undefined
      ? `next attempt in ${Math.max(0, Math.ceil((snap.retryAt - now) / 1000))} s`
      : snap.state === 'connecting' && snap.connectingSince !== undefined
        ? `waiting for the server’s answer for ${Math.max(0, Math.round((now - snap.connectingSince) / 1000))} s`
        : snap.state === 'watching' && snap.lastHeardAt !== undefined
          ? `last event or bookmark ${ago(now - snap.lastHeardAt)}`
          : snap.fatal
            ? snap.fatal
            : '';
  return (
    <>
      <span role="status" aria-label="Watch state" className={`badge ${className}`}>
        {text}
      </span>
      {staleness && (
        <span
          className={`small staleness ${className}`}
          aria-label="Staleness"
          title={
            snap.idleTimeoutMs
              ? `With bookmarks the server sends something about every minute; after ${Math.round(snap.idleTimeoutMs / 1000)} s of silence the pane watches again.`
              : 'Without bookmarks a quiet collection sends nothing: silence is not a fault.'
          }
        >
          {staleness}
        </span>
      )}
    </>
  );
}
