// The file logger (the CLI's `$SWITCHBOARD_HOME/log/switchboard.log`): pino JSON lines written
// asynchronously to a size-rotated file. pino is loaded by the first record that passes the level
// filter, so a command that logs nothing never pays for loading it.
import { createRequire } from 'node:module';
import type * as Pino from 'pino';
import { DEFAULT_LOG_ROTATION, RotatingLogFile, type FdDestination, type LogRotation } from './log-file.js';
import { sinkLogger, type LogLevel, type LogSink, type Logger } from './logger.js';

export interface FileLoggerOptions {
  level?: LogLevel;
  /** Default: DEFAULT_LOG_ROTATION (10 MiB × 5 rotated files). */
  rotation?: LogRotation;
}

const require = createRequire(import.meta.url);

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

function pinoSink(file: string, rotation: LogRotation): LogSink {
  const { pino } = require('pino') as typeof Pino;
  // pino.destination registers the exit hook that flushes a SonicBoom synchronously.
  const destination = (fd: number) => pino.destination({ dest: fd, sync: false, minLength: 0 }) as unknown as FdDestination;
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
