// Watching config.toml while a server runs: any change in its folder (an editor's rename over the
// file, `mcp add`'s atomic write, a Kubernetes ConfigMap's symlink swap, an edit in place) wakes the
// watcher, which tells its listener once the folder has been quiet for a moment. The listener reads
// the file and compares its revision, a content hash, with the one in force.
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** How long the folder must be quiet before a change is reported: an editor's save is several events. */
export const CONFIG_WATCH_DEBOUNCE_MS = 200;

export interface ConfigWatch {
  close(): void;
}

/**
 * Calls `onChange` after changes in `file`'s folder settle. When the folder cannot be watched
 * (missing, no inotify watches left) `onError` says why and nothing is reported.
 */
export function watchConfigFile(file: string, onChange: () => void, options: { debounceMs?: number; onError?: (err: unknown) => void } = {}): ConfigWatch {
  const debounceMs = options.debounceMs ?? CONFIG_WATCH_DEBOUNCE_MS;
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
    timer.unref();
  };
  try {
    // The folder, not the file: a rename over the file would leave a watch on the file looking at the old one.
    watcher = watch(path.dirname(file), { persistent: false }, changed);
    watcher.on('error', (err) => options.onError?.(err));
  } catch (err) {
    options.onError?.(err);
  }
  return {
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

/** The revision of a config file's text: the first 12 hex digits of its SHA-256 (`sha256sum config.toml`); no file reads as empty. */
export function configRevision(text: string | null): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text ?? '').digest('hex').slice(0, 12);
}
