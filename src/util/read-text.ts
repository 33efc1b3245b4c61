// A text file read through node:fs rather than node:fs/promises, which loads readline, the streams and
// the file watchers when first taken (about 4 ms): the CLI's warm path (config.toml, the servers'
// snapshots) reads with this and needs nothing else of it (docs/performance.md, "Issue 37,
// twenty-third round").
import { readFile } from 'node:fs';

/** `file`'s text (UTF-8); rejects with fs's own error (its `code`: ENOENT, EACCES, …), as fs/promises does. */
export function readTextFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => readFile(file, 'utf8', (err, text) => (err ? reject(err) : resolve(text))));
}
