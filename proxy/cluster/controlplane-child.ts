// A stand-in explorer for the no-orphan test of the real control plane: starts one in argv[2],
// prints its component pids as one JSON line, and waits to be killed (no signal handlers of its own).
import { startControlPlane } from './controlplane';

const cp = await startControlPlane({ dir: process.argv[2]!, controllerManager: process.argv[3] !== 'no-kcm', log: () => undefined });
process.stdout.write(`${JSON.stringify({ pids: cp.status().components.map((c) => c.pid) })}\n`);
setInterval(() => undefined, 1 << 30);
