// Opening the authorization URL: `$BROWSER` when set, else xdg-open / open / start. Resolves false
// when nothing could be launched, so the caller can tell the user to copy the URL.
import { spawn } from 'node:child_process';

const LAUNCH_GRACE_MS = 5_000;

function command(url: string, env: NodeJS.ProcessEnv): [string, string[]] {
  const browser = env.BROWSER?.trim();
  if (browser) return [browser, [url]];
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

export function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const [program, args] = command(url, env);
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(program, args, { stdio: 'ignore', env, detached: process.platform !== 'win32' });
    } catch {
      resolve(false);
      return;
    }
    // A browser that keeps running (rather than handing off and exiting) counts as launched.
    const timer = setTimeout(() => {
      child.unref();
      resolve(true);
    }, LAUNCH_GRACE_MS);
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}
