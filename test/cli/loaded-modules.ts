// Lists the files and Node's own modules a built CLI process loaded (issue 37: what a command loads
// decides its start-up and its memory at rest). `LOADED_MODULES_ENV` makes the process print them to
// stderr when it exits; `loadedFiles` and `loadedBuiltins` read them back.
import { fileURLToPath } from 'node:url';

const q = JSON.stringify;
const LOADED = '--- loaded ---';
const BUILTINS = '--- builtins ---';
const HOOK = `data:text/javascript,${encodeURIComponent(`
import module from 'node:module';
const seen = [];
module.registerHooks({ load(url, ctx, next) { seen.push(url); return next(url, ctx); } });
const builtins = () => process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
// The list is taken before process.stderr is read: making that stream loads modules of its own.
process.on('exit', () => { const text = ${q(LOADED)} + '\\n' + seen.join('\\n') + '\\n' + ${q(BUILTINS)} + '\\n' + builtins().join('\\n') + '\\n'; process.stderr.write(text); });
`)}`;

/** The environment to add to the process's. */
export const LOADED_MODULES_ENV = { NODE_OPTIONS: `--import=${HOOK}` };

/** The files (not Node's built-ins) the process loaded, from its whole stderr after it exited. */
export function loadedFiles(stderr: string): string[] {
  const at = stderr.indexOf(LOADED);
  if (at < 0) throw new Error(`the process did not list its modules (did it exit?); stderr: ${stderr.slice(-500)}`);
  return stderr
    .slice(at + LOADED.length, stderr.indexOf(BUILTINS, at))
    .split('\n')
    .filter((u) => u.startsWith('file:'))
    .map((u) => fileURLToPath(u));
}

/** Node's own modules the process had loaded when it exited (`process.moduleLoadList`), from its whole stderr. */
export function loadedBuiltins(stderr: string): string[] {
  const at = stderr.indexOf(BUILTINS);
  if (at < 0) throw new Error(`the process did not list its modules (did it exit?); stderr: ${stderr.slice(-500)}`);
  return stderr.slice(at + BUILTINS.length).split('\n').filter((m) => m !== '');
}
