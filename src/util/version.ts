// switchboard's version. package.json is its only source, read once here relative to this module:
// src/util/ and dist/util/ both sit two levels below the package root, in a checkout as when installed.
import { readFileSync } from 'node:fs';

function readVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error('package.json has no version');
  return manifest.version;
}

/** switchboard's version, as its package.json says (the one a published build was published as). */
export const VERSION: string = readVersion();
