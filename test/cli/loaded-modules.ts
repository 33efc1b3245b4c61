// Lists the files and Node's own modules a built CLI process loaded, and on Linux its threads (issue 37:
// what a command loads and starts decides its start-up and its memory at rest). `LOADED_MODULES_ENV`
// makes the process print them to stderr when it exits; `loadedFiles`, `loadedBuiltins` and
// `threadNames` read them back.
import { fileURLToPath } from 'node:url';

const q = JSON.stringify;
const LOADED = '--- loaded ---';
const BUILTINS = '--- builtins ---';
const THREADS = '--- threads ---';
const HOOK = `data:text/javascript,${encodeURIComponent(`
import module from 'node:module';
const seen = [];
module.registerHooks({ load(url, ctx, next) { seen.push(url); return next(url, ctx); } });
const builtins = () => process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
// The thread names Linux gives in /proc (libuv names its pool's threads libuv-worker); none elsewhere.
const threads = () => { const fs = process.getBuiltinModule('node:fs'); try { return fs.readdirSync('/proc/self/task').map((t) => fs.readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim()); } catch { return []; } };
// The lists are taken before process.stderr is read: making that stream loads modules of its own.
process.on('exit', () => { const text = ${q(LOADED)} + '\\n' + seen.join('\\n') + '\\n' + ${q(BUILTINS)} + '\\n' + builtins().join('\\n') + '\\n' + ${q(THREADS)} + '\\n' + threads().join('\\n') + '\\n'; process.stderr.write(text); });
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
  return stderr.slice(at + BUILTINS.length, stderr.indexOf(THREADS, at)).split('\n').filter((m) => m !== '');
}

/** The names of the process's threads when it exited, on Linux (`/proc/self/task/<tid>/comm`); empty elsewhere. */
export function threadNames(stderr: string): string[] {
  const at = stderr.indexOf(THREADS);
  if (at < 0) throw new Error(`the process did not list its threads (did it exit?); stderr: ${stderr.slice(-500)}`);
  return stderr.slice(at + THREADS.length).split('\n').filter((t) => t !== '');
}
