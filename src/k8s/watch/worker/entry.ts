// The Web Worker that runs the page's watch sessions (see host.ts): framing, JSON.parse and the
// reducer happen here, so a burst of events never blocks the page's input and rendering.
import { hostWatchSessions, type Port } from './host';

hostWatchSessions(self as unknown as Port);
