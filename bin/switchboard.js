#!/usr/bin/env node
// Entry shim: the compiled CLI lives in dist/ (run `npm run build` after a fresh clone). Node's module
// compile cache (22.1+) keeps compiled code of switchboard and its dependencies between runs, so a
// warm start skips most parsing; it is imported after the cache is on, hence the dynamic import.
import module from 'node:module';

module.enableCompileCache?.();

const { main, serverLaunch, forgetPreload } = await import('../dist/cli/main.js');

// A server command runs with Node settings for a server (src/cli/server-flags.ts), and with jemalloc
// where the system has it (src/cli/server-allocator.ts): the process re-executes itself with them
// (same pid) before it has opened or read anything; what it loaded to read its command line is loaded
// again (a server starts about 0.1 s later, once). Where Node cannot (no process.execve, as on
// Windows) or the binary cannot be run again, it runs as it is.
let relaunch;
try {
  relaunch = typeof process.execve === 'function' ? serverLaunch(process) : undefined;
} catch (err) {
  report(err);
  process.exit(2); // a usage error (src/cli/exit-codes.ts)
}
if (relaunch && runnable(process.execPath)) process.execve(process.execPath, relaunch.argv, relaunch.env);
forgetPreload(process.env);

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    report(err);
    process.exitCode = 1;
  },
);

function report(err) {
  process.stderr.write(`switchboard: ${err instanceof Error ? err.message : String(err)}\n`);
}

/** Taken with getBuiltinModule, not imported: an import of node:fs loads its streams (see scripts/bundle-options.ts). */
function runnable(file) {
  const fs = process.getBuiltinModule('node:fs');
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
