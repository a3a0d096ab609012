// --replay FILE: the explorer serves a recording (HAR 1.2 with the recording's extensions, see
// src/k8s/record/har.ts) to the page and sends nothing to any cluster. The page replays it; the
// server only hands the file over and refuses every request meant for a cluster.
import { readFileSync } from 'node:fs';
import { ProxyError } from './errors';

/** Reads the file once at start; a file that is not a HAR with entries fails the start. */
export function loadRecording(path: string): unknown {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new Error(`--replay ${path}: ${(e as Error).message}`, { cause: e });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new Error(`--replay ${path}: not JSON (${(e as Error).message})`, { cause: e });
  }
  const entries = (parsed as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) throw new Error(`--replay ${path}: not a HAR file (no log.entries)`);
  return parsed;
}

export function replayRefusal(): ProxyError {
  return new ProxyError(503, 'ServiceUnavailable', 'ReplayMode', 'the explorer is replaying a recording (--replay): nothing is sent to any cluster');
}
