// The package's version for the library's entry points, read from package.json (two levels up from
// both src/api and dist/api), so a published build reports what it was published as.
import { readFileSync } from 'node:fs';

/** The `version` of switchboard's package.json. */
export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
