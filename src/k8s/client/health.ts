// What the page knows about its connections: the explorer server, each cluster (context) and the
// per-launch token. The two network choke points (kubeFetch and the mux) report here; the status
// indicator reads it. A small external store (subscribe/getSnapshot) with immutable snapshots.

import { Listeners } from '../../lib/listeners';

export interface ContextHealth {
  /** Date.now() of the last answer from the API server (any HTTP status it produced itself). */
  lastOkAt?: number;
  /** Time to response headers of the last such answer, in ms (proxy and API server together). */
  latencyMs?: number;
  /** The last failure to reach the API server through the proxy (the proxy's own error). */
  lastError?: { message: string; at: number };
  /** True when the last request failed to reach the API server. */
  unreachable: boolean;
}

export type TokenState = 'ok' | 'refreshed' | 'rejected';

export interface HealthSnapshot {
  server: { reachable: boolean; lastError?: { message: string; at: number }; lastOkAt?: number };
  token: { state: TokenState; at?: number };
  contexts: Readonly<Record<string, ContextHealth>>;
}

type Listener = () => void;

class HealthStore {
  private snap: HealthSnapshot = { server: { reachable: true }, token: { state: 'ok' }, contexts: {} };
  private readonly listeners = new Listeners();

  subscribe = (l: Listener): (() => void) => {
    return this.listeners.subscribe(l);
  };
  getSnapshot = (): HealthSnapshot => this.snap;

  private set(next: HealthSnapshot): void {
    this.snap = next;
    this.listeners.emit();
  }

  private serverOk(now: number): HealthSnapshot['server'] {
    return { ...this.snap.server, reachable: true, lastOkAt: now };
  }

  /** An answer that came from the API server for this context. */
  clusterAnswered(context: string, latencyMs: number): void {
    const now = Date.now();
    this.set({ ...this.snap, server: this.serverOk(now), contexts: { ...this.snap.contexts, [context]: { ...this.snap.contexts[context], lastOkAt: now, latencyMs, unreachable: false } } });
  }

  /** The proxy answered, but could not reach the API server (or refused for its own reasons). */
  clusterFailed(context: string, message: string): void {
    const now = Date.now();
    this.set({ ...this.snap, server: this.serverOk(now), contexts: { ...this.snap.contexts, [context]: { ...this.snap.contexts[context], lastError: { message, at: now }, unreachable: true } } });
  }

  /** The explorer server answered something (its own endpoints). */
  serverAnswered(): void {
    if (this.snap.server.reachable && this.snap.server.lastOkAt && Date.now() - this.snap.server.lastOkAt < 1000) return;
    this.set({ ...this.snap, server: this.serverOk(Date.now()) });
  }

  /** The explorer server did not answer at all (fetch failed, mux silent). */
  serverUnreachable(message: string): void {
    this.set({ ...this.snap, server: { ...this.snap.server, reachable: false, lastError: { message, at: Date.now() } } });
  }

  tokenRefreshed(): void {
    this.set({ ...this.snap, token: { state: 'refreshed', at: Date.now() } });
  }

  tokenRejected(): void {
    this.set({ ...this.snap, token: { state: 'rejected', at: Date.now() } });
  }
}

export const connectionHealth = new HealthStore();
