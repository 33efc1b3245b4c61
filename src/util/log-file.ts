// The bytes of a log file: pino's asynchronous file destination (sonic-boom, flushed synchronously
// at process exit) on a 0600 file in a 0700 folder, rotated by size as `file` → `file.1` → … .
import { fstatSync, mkdirSync, openSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';

export interface LogRotation {
  /** Rotate once the live file has reached this many bytes. */
  maxBytes: number;
  /** Rotated files kept, at least 1 (`file.1` is the newest); older ones are deleted. */
  maxFiles: number;
}

/** 10 MiB per file, the live one plus 5 rotated: at most about 60 MiB of log per home. */
export const DEFAULT_LOG_ROTATION: LogRotation = { maxBytes: 10 * 1024 * 1024, maxFiles: 5 };

/** What `pino.destination({ dest: fd, sync: false })` returns (a SonicBoom); only what we use. */
export interface FdDestination {
  write(chunk: string): boolean;
  flush(cb?: (err?: Error) => void): void;
  end(): void;
  readonly destroyed: boolean;
  on(event: 'error' | 'close', listener: (...args: unknown[]) => void): unknown;
}

/**
 * A write-only stream for pino. Several switchboard processes share one log file, so a process that
 * finds the file already rotated by another (a new inode at the path) moves to it instead of
 * rotating again; two that rotate at the very same moment may shift one file too many, nothing worse.
 */
export class RotatingLogFile {
  private dest: FdDestination | null = null;
  private ino = -1;
  private size = 0;

  constructor(
    private readonly file: string,
    private readonly rotation: LogRotation,
    private readonly destination: (fd: number) => FdDestination,
  ) {}

  write(chunk: string): boolean {
    try {
      this.append(chunk);
    } catch {
      // The destination went away (ended at exit, or failed): one fresh try, then give up on this line.
      this.dest = null;
      try {
        this.append(chunk);
      } catch {
        // a log that cannot be written is not worth crashing for
      }
    }
    return true;
  }

  flush(cb?: (err?: Error) => void): void {
    if (this.dest && !this.dest.destroyed) this.dest.flush(cb);
    else cb?.();
  }

  private append(chunk: string): void {
    if (!this.dest || this.dest.destroyed) this.open();
    if (this.size >= this.rotation.maxBytes) this.rotate();
    this.size += Buffer.byteLength(chunk);
    this.dest!.write(chunk);
  }

  private open(): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const fd = openSync(this.file, 'a', 0o600);
    const stat = fstatSync(fd);
    this.ino = stat.ino;
    this.size = stat.size;
    const dest = this.destination(fd);
    const drop = () => {
      if (this.dest === dest) this.dest = null;
    };
    dest.on('error', drop);
    dest.on('close', drop);
    this.dest = dest;
  }

  private rotate(): void {
    // Our own count decides (the file on disk lags behind our buffered lines); the inode tells
    // whether the path is still our file or one that another process started after rotating.
    if (statOrNull(this.file)?.ino === this.ino) this.shiftFiles();
    // Lines still buffered for the old file land in it (now `file.1`) before it closes.
    this.dest?.end();
    this.dest = null;
    this.open();
  }

  private shiftFiles(): void {
    const keep = Math.max(1, this.rotation.maxFiles);
    for (let i = keep - 1; i >= 1; i--) renameIfPresent(`${this.file}.${i}`, `${this.file}.${i + 1}`);
    renameIfPresent(this.file, `${this.file}.1`);
  }
}

function statOrNull(file: string): { ino: number } | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

function renameIfPresent(from: string, to: string): void {
  try {
    renameSync(from, to); // replaces `to`, so the oldest rotated file drops out
  } catch {
    // missing, or held open elsewhere (Windows): rotation is best effort
  }
}
