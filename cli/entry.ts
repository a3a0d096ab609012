// The program's entry, for `npm start`, the packaged kubectl-api_explorer and `npx kube-api-explorer`:
// `check` runs the headless protocol check (cli/check), `xray` runs a client through the X-ray
// endpoint (proxy/src/xray/command.ts), anything else the explorer server
// (proxy/src/main.ts). The check lives outside proxy/ because it runs the page's own probes
// (src/k8s/serving) through the proxy, and proxy/ imports nothing from src/ (ARCHITECTURE.md).
import { programName } from '../proxy/src/cli';

if (process.argv[2] === 'check') {
  void import('./check/main').then(async ({ runCheckCommand }) => {
    const code = await runCheckCommand(process.argv.slice(3), programName(process.env, process.argv[1]));
    // Open keep-alive sockets must not hold the process; exit once what was written is flushed.
    process.stdout.write('', () => process.exit(code));
  });
} else if (process.argv[2] === 'xray') {
  void import('../proxy/src/xray/command').then(async ({ runXrayCommand }) => {
    const code = await runXrayCommand(process.argv.slice(3), programName(process.env, process.argv[1]));
    process.exit(code);
  });
} else {
  void import('../proxy/src/main');
}
