// Opens the explorer in the user's default browser, when there is one. Never fatal: the URL is
// printed anyway, and a headless machine (no DISPLAY) or a missing opener just skips this.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The command that opens a URL with the desktop's default browser, or null when there is none. */
export function browserCommand(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): { command: string; args: string[] } | null {
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  // Linux and the BSDs: a graphical session is needed; WSL has wslview.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return onPath('wslview', env) ? { command: 'wslview', args: [] } : null;
  }
  for (const c of ['xdg-open', 'gnome-open', 'kde-open', 'wslview']) if (onPath(c, env)) return { command: c, args: [] };
  return null;
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((d) => d && existsSync(join(d, command)));
}

/** Starts the browser detached; returns false when no browser could be found. */
export function openBrowser(url: string, log: (line: string) => void): boolean {
  const cmd = process.env.BROWSER ? { command: process.env.BROWSER, args: [] } : browserCommand();
  if (!cmd) return false;
  try {
    const child = spawn(cmd.command, [...cmd.args, url], { detached: true, stdio: 'ignore' });
    child.on('error', (e) => log(`could not open a browser (${cmd.command}): ${e.message}`));
    child.unref();
    return true;
  } catch (e) {
    log(`could not open a browser (${cmd.command}): ${(e as Error).message}`);
    return false;
  }
}
