// The credentials file: one JSON object keyed by store key, mode 0600, replaced atomically under a
// cross-process lock so concurrent writers (several servers, several processes) never lose entries.
import { readFile, rm } from 'node:fs/promises';
import { withFileLock, writeFileAtomic } from '../../util/index.js';
import { parseStoredCredentials, type StoredOAuthCredentials } from './credentials.js';
import type { TokenStore } from './token-store.js';

type FileContents = Record<string, unknown>;

export class FileTokenStore implements TokenStore {
  private readonly lockPath: string;

  constructor(readonly file: string) {
    this.lockPath = `${file}.lock`;
  }

  async load(serverKey: string): Promise<StoredOAuthCredentials | undefined> {
    const all = await this.readAll();
    return parseStoredCredentials(all[serverKey]);
  }

  async save(serverKey: string, credentials: StoredOAuthCredentials): Promise<void> {
    await this.locked(async () => {
      const all = await this.readAll();
      all[serverKey] = credentials;
      await this.writeAll(all);
    });
  }

  async delete(serverKey: string): Promise<boolean> {
    return this.locked(async () => {
      const all = await this.readAll();
      if (!Object.hasOwn(all, serverKey)) return false;
      delete all[serverKey];
      await this.writeAll(all);
      return true;
    });
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    return withFileLock(this.lockPath, fn, { timeoutMs: 15_000 });
  }

  // Reads need no lock: writers replace the file with a rename, so a reader sees old or new, whole.
  private async readAll(): Promise<FileContents> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as FileContents) : {};
    } catch {
      return {};
    }
  }

  private async writeAll(all: FileContents): Promise<void> {
    if (Object.keys(all).length === 0) {
      await rm(this.file, { force: true });
      return;
    }
    await writeFileAtomic(this.file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  }
}
