// Read-modify-write of config.toml under a cross-process lock, written atomically, verified first.
import { mkdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { withFileLock, writeFileAtomic } from '../util/index.js';
import { ConfigError } from './config-error.js';
import { ConfigDocument } from './edit.js';

export interface UpdateConfigOptions {
  signal?: AbortSignal;
  /** How long to wait for another process's edit (default 10 s). */
  lockTimeoutMs?: number;
}

export interface UpdateConfigResult<T> {
  result: T;
  /** False when the edit changed nothing (the file was not touched). */
  written: boolean;
  /** The file that was (or would have been) written: symlinks are followed. */
  file: string;
}

/** A new config.toml may hold secrets (env values, headers): only its owner may read it. */
const NEW_FILE_MODE = 0o600;

async function resolveTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return path.resolve(file);
    throw err;
  }
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw new ConfigError(`cannot read config file: ${(err as Error).message}`, { file }, { cause: err });
  }
}

/** Read the config as a document without locking (for previews such as `mcp import --dry-run`). */
export async function readConfigDocument(file: string): Promise<ConfigDocument> {
  return ConfigDocument.parse(await readText(file), file);
}

/**
 * Run `edit` on the current file contents while holding `<file>.lock`, so concurrent edits from other
 * processes are serialised and each sees the other's result. Nothing is written when the file does
 * not parse, when `edit` throws, or when the edited text fails verification.
 */
export async function updateConfigFile<T>(
  file: string,
  edit: (doc: ConfigDocument) => T,
  options: UpdateConfigOptions = {},
): Promise<UpdateConfigResult<T>> {
  const target = await resolveTarget(file);
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  return withFileLock(
    `${target}.lock`,
    async () => {
      options.signal?.throwIfAborted();
      const before = await readText(target);
      const doc = ConfigDocument.parse(before, file);
      const result = edit(doc);
      if (doc.text === before) return { result, written: false, file: target };
      doc.verify();
      let mode = NEW_FILE_MODE;
      try {
        mode = (await stat(target)).mode & 0o777;
      } catch {
        // A new file keeps the private default.
      }
      options.signal?.throwIfAborted();
      await writeFileAtomic(target, doc.text, { mode });
      return { result, written: true, file: target };
    },
    { signal: options.signal, timeoutMs: options.lockTimeoutMs },
  );
}
