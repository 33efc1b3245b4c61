// The file logger (the CLI's `$SWITCHBOARD_HOME/log/switchboard.log`): pino JSON lines written
// asynchronously to a size-rotated file. pino is loaded by the first record that passes the level
// filter, so a command that logs nothing never pays for loading it.
import type * as Pino from 'pino';
import { DEFAULT_LOG_ROTATION, RotatingLogFile, type FdDestination, type LogRotation } from './log-file.js';
import { sinkLogger, type LogLevel, type LogSink, type Logger } from './logger.js';

export interface FileLoggerOptions {
  level?: LogLevel;
  /** Default: DEFAULT_LOG_ROTATION (10 MiB × 5 rotated files). */
  rotation?: LogRotation;
}

/** pino, loaded at the first record written (with node:module, taken then too: docs/architecture.md, conventions). */
function loadPino(): typeof Pino {
  return process.getBuiltinModule('node:module').createRequire(import.meta.url)('pino') as typeof Pino;
}

/**
 * Records go out as `{"level":"info","time":"<ISO>","msg":"…",…fields}`, secrets already masked by
 * the shared redaction (key names, at any depth). Buffered lines are written synchronously when the
 * process exits, on a thrown error too; failures to log never throw.
 */
export function createFileLogger(file: string, options: FileLoggerOptions = {}): Logger {
  let write: LogSink | undefined;
  return sinkLogger(
    (level, msg, fields) => {
      write ??= pinoSink(file, options.rotation ?? DEFAULT_LOG_ROTATION);
      write(level, msg, fields);
    },
    { level: options.level },
  );
}

/** pino.destination registers the exit hook that flushes a SonicBoom synchronously. */
function pinoDestination(): (fd: number) => FdDestination {
  const { pino } = loadPino();
  return (fd: number) => pino.destination({ dest: fd, sync: false, minLength: 0 }) as unknown as FdDestination;
}

/**
 * Whole lines appended to a size-rotated 0600 file on the same asynchronous destination as the log
 * (flushed at exit); for JSONL records that are not log lines (the audit trail).
 */
export function createLineFile(file: string, rotation: LogRotation = DEFAULT_LOG_ROTATION): { write(line: string): void; flush(): Promise<void> } {
  let out: RotatingLogFile | undefined;
  return {
    write(line) {
      out ??= new RotatingLogFile(file, rotation, pinoDestination());
      out.write(line.endsWith('\n') ? line : `${line}\n`);
    },
    flush: () => new Promise<void>((resolve) => (out ? out.flush(() => resolve()) : resolve())),
  };
}

function pinoSink(file: string, rotation: LogRotation): LogSink {
  const { pino } = loadPino();
  const destination = pinoDestination();
  const logger = pino(
    {
      level: 'debug', // sinkLogger has filtered already
      base: undefined, // no pid/hostname: the text lines before pino had neither
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    new RotatingLogFile(file, rotation, destination),
  );
  return (level, msg, fields) => logger[level](fields, msg);
}
