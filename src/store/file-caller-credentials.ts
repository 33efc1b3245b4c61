// Callers' upstream credentials as files under $SWITCHBOARD_HOME/caller-credentials (folder 0700,
// files 0600, each sealed): one file per caller and server, named by a hash so no caller's name
// reaches the file system; logins in progress beside them, taken by a rename (single use across
// every process on the machine).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { acquireFileLock, writeFileAtomic } from '../util/index.js';
import {
  matches,
  openCredential,
  openLogin,
  sealCredential,
  sealLogin,
  type CallerCredentialFilter,
  type CallerCredentialStore,
  type CallerCredentialSummary,
} from './caller-credentials.js';

const FOLDER = 'caller-credentials';

interface CredentialFile {
  caller: string;
  server: string;
  name: string;
  updated_at: string;
  sealed: string;
}

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 40);

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

export class FileCallerCredentialStore implements CallerCredentialStore {
  private readonly root: string;

  constructor(
    home: string,
    private readonly key: Buffer,
  ) {
    this.root = path.join(home, FOLDER);
  }

  private file(caller: string, name: string): string {
    return path.join(this.root, `${hash(caller, name)}.json`);
  }

  private async read(file: string): Promise<CredentialFile | undefined> {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as CredentialFile;
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  }

  async load(caller: string, name: string): Promise<unknown> {
    const entry = await this.read(this.file(caller, name));
    if (!entry || entry.caller !== caller || entry.name !== name) return undefined;
    return openCredential(this.key, caller, name, Buffer.from(entry.sealed, 'base64'));
  }

  async save(caller: string, server: string, name: string, value: unknown): Promise<void> {
    const entry: CredentialFile = { caller, server, name, updated_at: new Date().toISOString(), sealed: sealCredential(this.key, caller, name, value).toString('base64') };
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file(caller, name), JSON.stringify(entry), { mode: 0o600 });
  }

  async delete(caller: string, name: string): Promise<boolean> {
    const file = this.file(caller, name);
    const present = (await this.read(file)) !== undefined;
    await rm(file, { force: true });
    return present;
  }

  async stamp(caller: string, name: string): Promise<string | undefined> {
    try {
      const s = await stat(this.file(caller, name));
      return `${s.mtimeMs}:${s.ino}`;
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  }

  async list(filter?: CallerCredentialFilter): Promise<CallerCredentialSummary[]> {
    const out: CallerCredentialSummary[] = [];
    for (const { entry } of await this.entries(filter)) out.push({ caller: entry.caller, server: entry.server, updatedAt: entry.updated_at });
    return out.sort((a, b) => (a.caller === b.caller ? a.server.localeCompare(b.server) : a.caller.localeCompare(b.caller)));
  }

  async revoke(filter: CallerCredentialFilter): Promise<number> {
    let removed = 0;
    for (const { file } of await this.entries(filter)) {
      await rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }

  lock(caller: string, name: string): Promise<() => Promise<void>> {
    return acquireFileLock(path.join(this.root, 'locks', `${hash(caller, name)}.lock`));
  }

  async putLogin(id: string, record: unknown, ttlMs: number): Promise<void> {
    const body = { expires_at: Date.now() + ttlMs, sealed: sealLogin(this.key, id, record).toString('base64') };
    await writeFileAtomic(this.loginFile(id), JSON.stringify(body), { mode: 0o600 });
  }

  async takeLogin(id: string): Promise<unknown> {
    const taken = `${this.loginFile(id)}.${randomBytes(6).toString('hex')}.taken`;
    try {
      await rename(this.loginFile(id), taken);
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
    try {
      const body = JSON.parse(await readFile(taken, 'utf8')) as { expires_at: number; sealed: string };
      return body.expires_at > Date.now() ? openLogin(this.key, id, Buffer.from(body.sealed, 'base64')) : undefined;
    } finally {
      await rm(taken, { force: true });
    }
  }

  private loginFile(id: string): string {
    return path.join(this.root, 'logins', `${hash(id)}.json`);
  }

  private async entries(filter: CallerCredentialFilter | undefined): Promise<{ file: string; entry: CredentialFile }[]> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (err) {
      if (missing(err)) return [];
      throw err;
    }
    const out: { file: string; entry: CredentialFile }[] = [];
    for (const n of names.filter((f) => f.endsWith('.json'))) {
      const file = path.join(this.root, n);
      const entry = await this.read(file);
      if (entry && matches(filter, entry.caller, entry.server)) out.push({ file, entry });
    }
    return out;
  }
}
