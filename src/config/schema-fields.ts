// Zod field schemas that speak config.toml's error texts, and the translation of a zod issue into a
// ConfigError. Built once at module level: config loading is on the CLI start-up path.
// zod/v3 (inside the zod 4 package): it loads in ~6.5 ms where 'zod' (v4) takes ~40 ms, on every CLI start.
import { z } from 'zod/v3';
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

/** What a text is made from: the path of the value at fault (complete, relative to the table parsed) and the value. */
export interface Issue {
  path: readonly (string | number)[];
  input: unknown;
}

/** The dotted path of the value at fault (`env.A`), relative to the table being parsed. */
export function pathOf(iss: Issue): string {
  return iss.path.map(String).join('.');
}

/** The key of the table being parsed that holds the value at fault (`args` for `args[2]`). */
export function keyOf(iss: Issue): string {
  return String(iss.path[0] ?? '');
}

/** Zod's `errorMap` parameter: every issue the schema itself raises (its checks' too) reads as `text(issue)`. */
export function says(text: (iss: Issue) => string): { errorMap: z.ZodErrorMap } {
  return { errorMap: (iss, ctx) => ({ message: text({ path: iss.path, input: ctx.data }) }) };
}

/** A value that passes `valid` (anything else fails with `text`); the guard the next schema in a pipe relies on. */
export function accepted<T>(valid: (v: unknown) => v is T, text: (iss: Issue) => string) {
  return z.unknown().superRefine((input, ctx): input is T => {
    if (valid(input)) return true;
    ctx.addIssue({ code: 'custom', message: text({ path: ctx.path, input }), fatal: true });
    return false;
  });
}

/**
 * zod's object over a table that may be a date (isObjectTable's tables): a date has none of the keys, as
 * for zod 4's object, which read a date's properties; zod 3's refuses it.
 */
export function objectOf<S extends z.ZodRawShape>(shape: S) {
  return z.preprocess((v) => (v instanceof Date ? {} : v), z.object(shape));
}

/**
 * A schema built when first used instead of when config loads: building zod schemas is most of
 * loading the config layer (each is an object with 24 bound methods), and a section most
 * config.toml files do not have ([server_auth], [model_providers], [environments], a server's oauth
 * and token_exchange) need never be built (docs/performance.md, "Issue 37, twenty-third round").
 */
export function builtOnFirstUse<S>(build: () => S): () => S {
  let built: S | undefined;
  return () => (built ??= build());
}

export const string = z.string(says((iss) => `${pathOf(iss)} must be a string`));
export const nonEmptyString = z.string(says((iss) => `${keyOf(iss)} must be a non-empty string`)).min(1);
export const boolean = z.boolean(says((iss) => `${keyOf(iss)} must be true or false`));

const nonNegativeText = says((iss) => `${keyOf(iss)} must be a non-negative number`);
/** A finite number >= 0 (a TOML integer too large for a double arrives as a bigint). */
export const nonNegativeNumber = z.preprocess(
  (v) => (typeof v === 'bigint' ? Number(v) : v),
  z.number(nonNegativeText).finite().min(0),
);

const arrayOfStringsText = says((iss) => `${keyOf(iss)} must be an array of strings`);
export const stringArray = z.array(z.string(arrayOfStringsText), arrayOfStringsText);

/** The table without an own `__proto__` key, which is never read (zod 4's record skipped it, the old readers too). */
function withoutProtoKey(v: unknown): unknown {
  if (!isTable(v) || !Object.hasOwn(v, '__proto__')) return v;
  const copy: Raw = { ...v };
  delete copy.__proto__;
  return copy;
}

/** A table of strings; a bad value is named by its own path (`env.A must be a string`). */
export const stringTable = z.preprocess(
  withoutProtoKey,
  z.record(z.string(), string, says((iss) => `${keyOf(iss)} must be a table of strings`)),
);

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
  return z.unknown().refine(valid, (input) => ({ message: text(input) })).transform(toNumber);
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

/** A TOML table with these keys; anything else, a date too, reads as `text`. */
export function table<S extends z.ZodRawShape>(shape: S, text: (iss: Issue) => string) {
  return accepted(isTable, text).pipe(z.object(shape));
}

/**
 * Parse `value` (the table at `where`); the first issue, in the schema's key order, is the error. Its key
 * path names the table's key (`depth` keys deep), not the element inside it (`args`, not `args.2`).
 */
export function parseTable<S extends z.ZodTypeAny>(schema: S, value: unknown, where: string[], depth = 1): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new ConfigError(issue.message, { keyPath: [...where, ...issue.path.slice(0, depth).map(String)] });
}
