// Logging: library code logs through an injected Logger, never to stdout. This file owns the
// interface, level filtering, base fields and the redaction of secrets that every sink shares.

/** A log record's level; a logger drops records below its own. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * Where library code logs (it never writes to stdout or the console). Implement these five methods to
 * route switchboard's log lines into your own logger; `fields` never need redacting by the caller.
 */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** Writes one finished log line (no trailing newline). */
export type LogWrite = (line: string) => void;

/** Receives one record that passed the level filter, its fields already merged and redacted. */
export type LogSink = (level: LogLevel, msg: string, fields: Record<string, unknown>) => void;

/** How a logger filters and what it adds to every record. */
export interface LoggerOptions {
  /** The lowest level written. Default `info`. */
  level?: LogLevel;
  /** Fields added to every record. */
  base?: Record<string, unknown>;
}

/** Keys whose values are never written to a log line, whatever the caller passes. */
const SECRET_KEY = /(token|secret|password|authorization|api[_-]?key|cookie)/i;
export const REDACTED = '*****';
const MAX_DEPTH = 4;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** A copy of `fields` with the value of every secret-looking key, at any depth of plain objects, masked. */
export function redactFields(fields: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (SECRET_KEY.test(k)) out[k] = REDACTED;
    else if (isPlainObject(v) && depth < MAX_DEPTH) out[k] = redactFields(v, depth + 1);
    else out[k] = v;
  }
  return out;
}

/** A Logger over any sink: the level check happens first, so filtered-out calls cost nothing. */
export function sinkLogger(sink: LogSink, options: LoggerOptions = {}): Logger {
  const min = ORDER[options.level ?? 'info'];
  const base = options.base ?? {};
  const emit = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    sink(level, msg, redactFields({ ...base, ...(fields ?? {}) }));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => sinkLogger(sink, { level: options.level, base: { ...base, ...fields } }),
  };
}

/** A Logger that writes one text line per record: `<ISO time> <LEVEL> <msg> <fields as JSON>`. */
export function createLogger(write: LogWrite, options: LoggerOptions = {}): Logger {
  return sinkLogger((level, msg, fields) => {
    const tail = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    write(`${new Date().toISOString()} ${level.toUpperCase()} ${msg}${tail}`);
  }, options);
}

/** A Logger that discards everything: the default of the library entry points. */
export const nullLogger: Logger = createLogger(() => {}, { level: 'error' });

/**
 * A Logger that writes one text line per record to stderr (from `info` up unless `level` says
 * otherwise): the quickest way to see what a manager, a client or the gateway does.
 *
 * @example
 * ```ts
 * const manager = createConnectionManager(config, { logger: stderrLogger({ level: 'debug' }) });
 * ```
 */
export function stderrLogger(options: LoggerOptions = {}): Logger {
  return createLogger(stderrLogWrite(), options);
}

export function stderrLogWrite(): LogWrite {
  return (line) => {
    process.stderr.write(`${line}\n`);
  };
}

/** Logs to `logger` and mirrors every record, debug included, to stderr as text (`--verbose`). */
export function teeLogger(logger: Logger): Logger {
  const stderr = stderrLogger({ level: 'debug' });
  const both = (a: Logger, b: Logger): Logger => ({
    debug: (m, f) => (a.debug(m, f), b.debug(m, f)),
    info: (m, f) => (a.info(m, f), b.info(m, f)),
    warn: (m, f) => (a.warn(m, f), b.warn(m, f)),
    error: (m, f) => (a.error(m, f), b.error(m, f)),
    child: (fields) => both(a.child(fields), b.child(fields)),
  });
  return both(logger, stderr);
}
