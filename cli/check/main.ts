// `check`'s entry: flags, the session, the report in the format asked, the exit status.
import { writeFileSync } from 'node:fs';
import { checkUsage, parseCheckCli } from './cli';
import { compareReports, textDifferences } from './compare';
import { htmlReport } from './html';
import { exitCode, jsonReport, junitReport, type Report, textReport } from './report';
import { CheckError, openCheckSession, type Progress } from './run';

/** Runs `check` with its own arguments (after the word `check`); resolves with the exit status. */
export async function runCheckCommand(argv: string[], program: string): Promise<number> {
  const cli = parseCheckCli(argv);
  if (cli.kind === 'help') {
    process.stdout.write(`${checkUsage(program)}\n`);
    return 0;
  }
  if (cli.kind === 'error') {
    process.stderr.write(`error: ${cli.message}\n\n${checkUsage(program)}\n`);
    return 2;
  }
  const opts = cli.options;
  // The explorer server's own lines (exec plugins, refusals) are kept for an error message.
  const logged: string[] = [];
  // A progress line only for a person at a terminal: never in a file, a pipe or CI's log.
  const tty = process.stderr.isTTY === true;
  const progress: Progress | undefined = tty
    ? (done, total, context, last) => process.stderr.write(`\r\x1b[2K${context}: ${done}/${total} resources checked (${last})`)
    : undefined;
  const clearProgress = () => tty && process.stderr.write('\r\x1b[2K');
  let session;
  try {
    session = await openCheckSession(opts, (l) => logged.push(l));
    const reports: Report[] = [await session.check(opts.context, progress)];
    clearProgress();
    if (opts.compare) {
      reports.push(await session.check(opts.compare, progress));
      clearProgress();
    }
    const diffs = reports.length === 2 ? compareReports(reports[0]!, reports[1]!) : undefined;
    const text =
      opts.output === 'json'
        ? jsonReport(reports, diffs)
        : opts.output === 'junit'
          ? junitReport(reports)
          : opts.output === 'html'
            ? htmlReport(reports, diffs)
            : `${reports.map(textReport).join('\n')}${diffs ? `\n${textDifferences(reports[0]!, reports[1]!, diffs)}` : ''}`;
    if (opts.out) writeFileSync(opts.out, text);
    else process.stdout.write(text);
    const code = exitCode(reports);
    if (opts.out || opts.output !== 'text') {
      const breaking = reports.reduce((n, r) => n + r.summary.breakInformers, 0);
      process.stderr.write(`${breaking ? `${breaking} resources would break client-go informers` : 'nothing would break a client-go informer'}${opts.out ? `; report in ${opts.out}` : ''}\n`);
    }
    return code;
  } catch (e) {
    clearProgress();
    const message = e instanceof CheckError ? e.message : `${(e as Error).message ?? String(e)}`;
    process.stderr.write(`error: ${message}\n${logged.length ? `${logged.slice(-5).join('\n')}\n` : ''}`);
    return 2;
  } finally {
    await session?.close().catch(() => undefined);
  }
}
