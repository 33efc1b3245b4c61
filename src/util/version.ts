// switchboard's version. package.json is its only source, read once here: the nearest package.json
// above this module that names switchboard (src/util/ in a checkout; a bundled chunk in dist/, whose
// own dist/package.json only sets the module type), in a checkout as when installed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

function readVersion(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'switchboard') {
        if (typeof manifest.version !== 'string') throw new Error(`${file} has no version`);
        return manifest.version;
      }
    }
    if (path.dirname(dir) === dir) throw new Error(`no package.json of switchboard above ${import.meta.dirname}`);
  }
}

/** switchboard's version, as its package.json says (the one a published build was published as). */
export const VERSION: string = readVersion();
