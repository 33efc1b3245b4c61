// Changing a running server's config.toml as people and tools do: an editor's save (a new file
// renamed over the old one), the revision the server reports for a text (its SHA-256, 12 digits),
// and a home to start one in.
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from './temp.js';

export async function saveAsEditor(file: string, text: string): Promise<void> {
  await writeFile(`${file}.swp`, text);
  await rename(`${file}.swp`, file);
}

export function revisionOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** A temp $SWITCHBOARD_HOME with `text` as its config.toml and an empty working folder `work` in it. */
export async function homeWithConfig(prefix: string, text: string): Promise<{ home: string; file: string; work: string }> {
  const home = await tempDir(prefix);
  const file = path.join(home, 'config.toml');
  const work = path.join(home, 'work');
  await mkdir(work);
  await writeFile(file, text);
  return { home, file, work };
}
