// Lists the files a built CLI process loaded (issue 37: what a command loads decides its start-up and
// its memory at rest). `LOADED_MODULES_ENV` makes the process print every module URL it loaded to
// stderr when it exits; `loadedFiles` reads them back.
import { fileURLToPath } from 'node:url';

const q = JSON.stringify;
const LOADED = '--- loaded ---';
const HOOK = `data:text/javascript,${encodeURIComponent(`
import module from 'node:module';
const seen = [];
module.registerHooks({ load(url, ctx, next) { seen.push(url); return next(url, ctx); } });
process.on('exit', () => process.stderr.write(${q(LOADED)} + '\\n' + seen.join('\\n') + '\\n'));
`)}`;

/** The environment to add to the process's. */
export const LOADED_MODULES_ENV = { NODE_OPTIONS: `--import=${HOOK}` };

/** The files (not Node's built-ins) the process loaded, from its whole stderr after it exited. */
export function loadedFiles(stderr: string): string[] {
  const at = stderr.indexOf(LOADED);
  if (at < 0) throw new Error(`the process did not list its modules (did it exit?); stderr: ${stderr.slice(-500)}`);
  return stderr
    .slice(at + LOADED.length)
    .split('\n')
    .filter((u) => u.startsWith('file:'))
    .map((u) => fileURLToPath(u));
}
