// The mux's frame coalescing, alone: runs of one stream's chunks become one frame, and frames keep
// the order in which chunks of different streams arrived.
import { describe, expect, it } from 'vitest';
import { RunCoalescer } from './mux';

function recorder(maxBytes = 64 * 1024) {
  const frames: string[] = [];
  let later: (() => void) | undefined;
  const c = new RunCoalescer<string>((s, parts) => frames.push(`${s}:${Buffer.concat(parts).toString()}`), maxBytes, (f) => (later = f));
  return { c, frames, endOfTurn: () => later?.() };
}

describe('RunCoalescer', () => {
  it('sends the chunks of one stream read in one turn as one frame, at the end of the turn', () => {
    const { c, frames, endOfTurn } = recorder();
    c.push('a', Buffer.from('1'));
    c.push('a', Buffer.from('2'));
    c.push('a', Buffer.from('3'));
    expect(frames).toEqual([]);
    endOfTurn();
    expect(frames).toEqual(['a:123']);
  });

  it('keeps the arrival order across streams: a chunk of another stream ends the run', () => {
    const { c, frames, endOfTurn } = recorder();
    // A ReplicaSet's events, then its Deployment's, then the ReplicaSet's again, all in one turn.
    c.push('rs', Buffer.from('MODIFIED;'));
    c.push('deploy', Buffer.from('MODIFIED;'));
    c.push('rs', Buffer.from('DELETED;'));
    c.push('deploy', Buffer.from('DELETED;'));
    endOfTurn();
    expect(frames).toEqual(['rs:MODIFIED;', 'deploy:MODIFIED;', 'rs:DELETED;', 'deploy:DELETED;']);
  });

  it('sends a run at the byte limit without waiting for the turn to end', () => {
    const { c, frames } = recorder(4);
    c.push('a', Buffer.from('12'));
    c.push('a', Buffer.from('34'));
    expect(frames).toEqual(['a:1234']);
  });

  it('flushes on demand (before a message) and drops what a closed stream had pending', () => {
    const { c, frames, endOfTurn } = recorder();
    c.push('a', Buffer.from('x'));
    c.flush();
    expect(frames).toEqual(['a:x']);
    c.push('b', Buffer.from('y'));
    c.drop('a');
    c.drop('b');
    endOfTurn();
    expect(frames).toEqual(['a:x']);
  });
});
