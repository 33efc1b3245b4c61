// Zod field schemas that speak config.toml's error texts, and the translation of a zod issue into a
// ConfigError. Built once at module level: config loading is on the CLI start-up path.
import { z } from 'zod';
import { ConfigError } from './config-error.js';

export type Raw = Record<string, unknown>;

/** A TOML table: a plain object (smol-toml's tables have no prototype); not an array nor a date. */
export function isTable(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** A table as the top level, environments and providers have always taken one: any object but an array (a date too). */
export function isObjectTable(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The zod issue, as an error-map callback sees it: its path is complete by then. */
type Issue = z.core.$ZodRawIssue;

/** The dotted path of the value at fault (`env.A`), relative to the table being parsed. */
export function pathOf(iss: Issue): string {
  return (iss.path ?? []).map(String).join('.');
}

/** The key of the table being parsed that holds the value at fault (`args` for `args[2]`). */
export function keyOf(iss: Issue): string {
  return String(iss.path?.[0] ?? '');
}

/** Zod's `error` parameter: every issue the schema raises reads as `text(issue)`. */
export function says(text: (iss: Issue) => string): { error: (iss: Issue) => string } {
  return { error: text };
}

export const string = z.string(says((iss) => `${pathOf(iss)} must be a string`));
export const nonEmptyString = z.string(says((iss) => `${keyOf(iss)} must be a non-empty string`)).min(1);
export const boolean = z.boolean(says((iss) => `${keyOf(iss)} must be true or false`));

const nonNegativeText = says((iss) => `${keyOf(iss)} must be a non-negative number`);
/** A finite number >= 0 (a TOML integer too large for a double arrives as a bigint). */
export const nonNegativeNumber = z.preprocess(
  (v) => (typeof v === 'bigint' ? Number(v) : v),
  z.number(nonNegativeText).min(0, nonNegativeText),
);

const arrayOfStringsText = says((iss) => `${keyOf(iss)} must be an array of strings`);
export const stringArray = z.array(z.string(arrayOfStringsText), arrayOfStringsText);

/** A table of strings; a bad value is named by its own path (`env.A must be a string`). */
export const stringTable = z.record(z.string(), string, says((iss) => `${keyOf(iss)} must be a table of strings`));

/** Number(v) as these keys have always read their value ("64" and [64] included); NaN where it throws. */
function toNumber(v: unknown): number {
  try {
    return Number(v);
  } catch {
    return Number.NaN;
  }
}

/** A whole number in [min, max] after Number(); `booleans: false` refuses true/false (which Number makes 1/0). */
export function wholeNumber(min: number, max: number, text: (input: unknown) => string, options: { booleans: boolean }) {
  const valid = (v: unknown) => (options.booleans || typeof v !== 'boolean') && Number.isInteger(toNumber(v)) && toNumber(v) >= min && toNumber(v) <= max;
  return z.unknown().refine(valid, says(({ input }) => text(input))).transform(toNumber);
}

export function safeString(v: unknown): string {
  try {
    return String(v);
  } catch {
    return Object.prototype.toString.call(v);
  }
}

/** A string that must be one of `values`; a non-string reads as `<key> must be a string`. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, text: string) {
  return string.pipe(z.enum(values, says(() => text)));
}

/** A TOML table with these keys (zod's object alone would take a date for a table). */
export function table<S extends z.ZodRawShape>(shape: S, text: (iss: Issue) => string) {
  return z.custom<Raw>(isTable, says(text)).pipe(z.object(shape));
}

/**
 * Parse `value` (the table at `where`); the first issue, in the schema's key order, is the error. Its key
 * path names the table's key (`depth` keys deep), not the element inside it (`args`, not `args.2`).
 */
export function parseTable<S extends z.ZodType>(schema: S, value: unknown, where: string[], depth = 1): z.output<S> {
  // jitless: a table is parsed about once per run, and compiling zod's fast path first costs more than it
  // saves (about 2.5 ms of CPU per CLI start, measured).
  const result = schema.safeParse(value, { jitless: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new ConfigError(issue.message, { keyPath: [...where, ...issue.path.slice(0, depth).map(String)] });
}
