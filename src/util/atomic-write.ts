// Atomic file replacement (temp file in the same folder + rename) with an explicit mode.
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomHex } from './random-hex.js';

export async function writeFileAtomic(file: string, data: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomHex()}.tmp`);
  const handle = await open(tmp, 'wx', options.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    // An explicit mode is the file's mode exactly, whatever the umask.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => {});
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
