// Logging sink: library code logs through an injected Logger; never to stdout.
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

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

export type LogWrite = (line: string) => void;

/** Keys whose values are never written to a log line, whatever the caller passes. */
const SECRET_KEY = /(token|secret|password|authorization|api[_-]?key|cookie)/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_KEY.test(k) ? '*****' : v;
  return out;
}

export function createLogger(write: LogWrite, options: { level?: LogLevel; base?: Record<string, unknown> } = {}): Logger {
  const min = ORDER[options.level ?? 'info'];
  const base = options.base ?? {};
  const emit = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    const extra = { ...base, ...(fields ?? {}) };
    const tail = Object.keys(extra).length > 0 ? ` ${JSON.stringify(redact(extra))}` : '';
    write(`${new Date().toISOString()} ${level.toUpperCase()} ${msg}${tail}`);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger(write, { level: options.level, base: { ...base, ...fields } }),
  };
}

/** A Logger that discards everything: the default of the library entry points. */
export const nullLogger: Logger = createLogger(() => {}, { level: 'error' });

/** Appends lines to a file, creating its folder; failures to log never throw. */
export function fileLogWrite(file: string): LogWrite {
  let ready = false;
  return (line) => {
    try {
      if (!ready) {
        mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        ready = true;
      }
      appendFileSync(file, `${line}\n`, { mode: 0o600 });
    } catch {
      // a log that cannot be written is not worth crashing for
    }
  };
}

export function stderrLogWrite(): LogWrite {
  return (line) => {
    process.stderr.write(`${line}\n`);
  };
}
