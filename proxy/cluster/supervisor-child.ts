// A stand-in explorer process for supervisor tests: supervises the commands given as JSON in argv[2]
// (each {name, bin, args}), prints the child pids and the watchdog's as one JSON line, and waits to
// be killed. It installs no signal handlers: whatever kills it, the watchdog must end the children.
import { Supervisor } from './supervisor';

const specs = JSON.parse(process.argv[2]!) as { name: string; bin: string; args: string[] }[];
const logDir = process.argv[3]!;
const sup = new Supervisor(logDir, () => undefined);
for (const s of specs) await sup.start({ ...s, ready: async () => true, readyTimeoutMs: 10_000, readyWhat: 'running' });
process.stdout.write(`${JSON.stringify({ children: sup.status().components.map((c) => c.pid), watchdog: sup.watchdogPid })}\n`);
setInterval(() => undefined, 1 << 30);
