// Opening the authorization URL: `$BROWSER` when set (tests set it to a fake browser), else the
// `open` package, which handles macOS, Windows (URLs with `&` intact), WSL and xdg-open. Resolves
// false when nothing could be launched, so the caller can tell the user to copy the URL.
import { spawn, type ChildProcess } from 'node:child_process';

const LAUNCH_GRACE_MS = 5_000;

export async function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const browser = env.BROWSER?.trim();
  let child: ChildProcess;
  try {
    if (browser) {
      child = spawn(browser, [url], { stdio: 'ignore', env, detached: process.platform !== 'win32' });
    } else {
      // Loaded only here: most commands never open a browser, and start-up time matters.
      const { default: open } = await import('open');
      child = await open(url);
    }
  } catch {
    return false;
  }
  return launched(child);
}

/**
 * A launcher that exits 0 (xdg-open, open, PowerShell handing off) or keeps running (a browser
 * started directly) counts as launched; one that fails to start or exits non-zero does not.
 */
function launched(child: ChildProcess): Promise<boolean> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode === 0);
  return new Promise((resolve) => {
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
