// Reads the MCP server JSON of Claude Desktop, Claude Code (.mcp.json), Cursor and VS Code and turns
// each entry into a [mcp_servers.<name>] table, with notes on anything that did not carry over.
import { ConfigError } from './config-error.js';
import { parseMcpServerConfig, SERVER_NAME_PATTERN } from './mcp-server-config.js';
import { serverTable, type HttpServerSpec, type ServerSpec, type StdioServerSpec } from './mcp-server-toml.js';
import { isPlainTable } from './toml-render.js';

export interface ImportedServer {
  /** The name written to config.toml (sanitised when the file's name is not valid here). */
  name: string;
  sourceName: string;
  spec: ServerSpec;
  table: Record<string, unknown>;
  /** Things the user should know: secrets now in config.toml, placeholders, ignored keys. */
  warnings: string[];
}

export interface SkippedServer {
  name: string;
  reason: string;
}

export interface McpJsonImport {
  /** Where the servers were found: `mcpServers` (Claude, Cursor), `servers` or `mcp.servers` (VS Code). */
  source: 'mcpServers' | 'servers' | 'mcp.servers';
  servers: ImportedServer[];
  skipped: SkippedServer[];
}

type Json = Record<string, unknown>;

/** VS Code's mcp.json is JSONC: blank out comments and trailing commas, keeping every offset. */
export function stripJsonComments(text: string): string {
  const out = text.split('');
  let i = 0;
  while (i < out.length) {
    const ch = out[i];
    if (ch === '"') {
      for (i++; i < out.length && out[i] !== '"'; i++) if (out[i] === '\\') i++;
      i++;
    } else if (ch === '/' && out[i + 1] === '/') {
      while (i < out.length && out[i] !== '\n') out[i++] = ' ';
    } else if (ch === '/' && out[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close < 0 ? out.length : close + 2;
      for (; i < end; i++) if (out[i] !== '\n' && out[i] !== '\r') out[i] = ' ';
    } else if (ch === ',') {
      let j = i + 1;
      while (j < out.length && /\s/.test(out[j]!)) j++;
      if (out[j] === '}' || out[j] === ']') out[i] = ' ';
      i++;
    } else {
      i++;
    }
  }
  return out.join('');
}

function parseJson(text: string, file: string): unknown {
  const cleaned = stripJsonComments(text.replace(/^\uFEFF/, ' '));
  try {
    return JSON.parse(cleaned);
  } catch (err) {
    const message = (err as Error).message;
    const pos = /position (\d+)/.exec(message);
    const detail = `invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/, ".*" is not valid JSON$/, '')}`;
    if (!pos) throw new ConfigError(detail, { file }, { cause: err });
    const before = cleaned.slice(0, Number(pos[1]));
    const line = before.split('\n').length;
    const column = Number(pos[1]) - before.lastIndexOf('\n');
    throw new ConfigError(detail, { file, line, column }, { cause: err });
  }
}

const PLACEHOLDER = /^\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}$/;
const BEARER_PLACEHOLDER = /^Bearer\s+\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}$/i;
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie)$|token|secret|key|password|session|auth/i;

function stringMap(value: unknown, what: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isPlainTable(value)) throw new Error(`${what} must be an object`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new Error(`${what}.${k} must be a string`);
    out[k] = String(v);
  }
  return out;
}

function stringList(value: unknown, what: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' && typeof v !== 'number')) throw new Error(`${what} must be an array of strings`);
  return value.map(String);
}

function noteUnexpanded(value: string, where: string, warnings: string[]): void {
  if (/\$\{input:/.test(value)) warnings.push(`${where} uses a VS Code input variable, which switchboard does not prompt for; edit the value in config.toml`);
  else if (value.includes('${')) warnings.push(`${where} contains a \${...} placeholder, which switchboard does not expand; edit the value in config.toml`);
}

function stdioSpec(entry: Json, warnings: string[]): StdioServerSpec {
  if (typeof entry.command !== 'string' || entry.command === '') throw new Error('command must be a non-empty string');
  const env: Record<string, string> = {};
  const envVars: string[] = [];
  for (const [k, v] of Object.entries(stringMap(entry.env, 'env'))) {
    const m = PLACEHOLDER.exec(v);
    if (m && m[1] === k) envVars.push(k);
    else {
      env[k] = v;
      noteUnexpanded(v, `env ${k}`, warnings);
    }
  }
  if (entry.cwd !== undefined && typeof entry.cwd !== 'string') throw new Error('cwd must be a string');
  if (typeof entry.cwd === 'string') noteUnexpanded(entry.cwd, 'cwd', warnings);
  if (entry.envFile !== undefined) warnings.push('envFile is not supported; copy the variables into env in config.toml');
  const args = stringList(entry.args, 'args');
  args.forEach((a, i) => noteUnexpanded(a, `args[${i}]`, warnings));
  return { transport: 'stdio', command: entry.command, args, env, env_vars: envVars, cwd: entry.cwd as string | undefined };
}

function httpSpec(entry: Json, type: 'streamable_http' | 'sse', url: string, warnings: string[]): HttpServerSpec {
  const spec: HttpServerSpec = { transport: type, url, http_headers: {}, env_http_headers: {} };
  for (const [h, v] of Object.entries(stringMap(entry.headers, 'headers'))) {
    const bearer = BEARER_PLACEHOLDER.exec(v);
    const plain = PLACEHOLDER.exec(v);
    if (bearer && h.toLowerCase() === 'authorization' && spec.bearer_token_env_var === undefined) spec.bearer_token_env_var = bearer[1];
    else if (plain) spec.env_http_headers![h] = plain[1]!;
    else {
      spec.http_headers![h] = v;
      if (v.includes('${')) noteUnexpanded(v, `header ${h}`, warnings);
      else if (SECRET_HEADER.test(h)) {
        warnings.push(
          `header ${h} holds a secret that is now stored in plain text in config.toml; consider keeping it in an environment variable ` +
            `(bearer_token_env_var = "VAR" for "Authorization: Bearer ...", or env_http_headers = { "${h}" = "VAR" })`,
        );
      }
    }
  }
  return spec;
}

const KNOWN_KEYS = new Set(['command', 'args', 'env', 'cwd', 'envFile', 'url', 'serverUrl', 'type', 'transport', 'headers', 'disabled']);

function entrySpec(entry: unknown, warnings: string[]): ServerSpec {
  if (!isPlainTable(entry)) throw new Error('entry must be an object');
  const url = entry.url ?? entry.serverUrl;
  const rawType = entry.type ?? entry.transport;
  if (rawType !== undefined && typeof rawType !== 'string') throw new Error('type must be a string');
  const type = rawType?.toLowerCase().replace(/[-_]/g, '');
  let spec: ServerSpec;
  if (entry.command !== undefined && url !== undefined) throw new Error('has both command and url');
  if (type === 'stdio' || (type === undefined && entry.command !== undefined)) {
    spec = stdioSpec(entry, warnings);
  } else if (url !== undefined) {
    if (typeof url !== 'string') throw new Error('url must be a string');
    let transport: 'streamable_http' | 'sse';
    if (type === 'sse') transport = 'sse';
    else if (type === 'http' || type === 'streamablehttp') transport = 'streamable_http';
    else if (type === undefined) {
      transport = /\/sse\/?$/.test(new URL(url, 'http://x').pathname) ? 'sse' : 'streamable_http';
      if (transport === 'sse') warnings.push('no type given and the URL ends in /sse: imported with transport = "sse"');
    } else throw new Error(`unsupported type "${rawType}"`);
    spec = httpSpec(entry, transport, url, warnings);
  } else {
    throw new Error(type && type !== 'stdio' ? 'url is missing' : 'needs a command or a url');
  }
  if (entry.disabled === true) spec.enabled = false;
  for (const k of Object.keys(entry)) if (!KNOWN_KEYS.has(k)) warnings.push(`key "${k}" has no switchboard equivalent and was ignored`);
  return spec;
}

/**
 * One server entry as Claude, Cursor and VS Code write it (`{"command", "args", "env"}` or
 * `{"type": "http", "url", "headers"}`), as it would be imported: its spec and what the user should know.
 * Throws an Error saying what is wrong with the entry.
 */
export function mcpJsonEntry(entry: unknown): { spec: ServerSpec; warnings: string[] } {
  const warnings: string[] = [];
  return { spec: entrySpec(entry, warnings), warnings };
}

function findServers(doc: unknown): { source: McpJsonImport['source']; servers: Json } | null {
  if (!isPlainTable(doc)) return null;
  if (isPlainTable(doc.mcpServers)) return { source: 'mcpServers', servers: doc.mcpServers };
  if (isPlainTable(doc.servers)) return { source: 'servers', servers: doc.servers };
  if (isPlainTable(doc.mcp) && isPlainTable(doc.mcp.servers)) return { source: 'mcp.servers', servers: doc.mcp.servers };
  return null;
}

/** Parse an MCP JSON file; a malformed file or one without servers is a ConfigError naming it. */
export function parseMcpJson(text: string, file: string): McpJsonImport {
  const found = findServers(parseJson(text, file));
  if (!found) throw new ConfigError('no "mcpServers" (Claude, Cursor) or "servers" (VS Code) object found', { file });
  const result: McpJsonImport = { source: found.source, servers: [], skipped: [] };
  const taken = new Set<string>();
  for (const [sourceName, entry] of Object.entries(found.servers)) {
    const warnings: string[] = [];
    let name = sourceName;
    if (!SERVER_NAME_PATTERN.test(name)) {
      name = sourceName.trim().replace(/[^A-Za-z0-9_-]+/g, '_');
      if (!SERVER_NAME_PATTERN.test(name)) {
        result.skipped.push({ name: sourceName, reason: `invalid server name '${sourceName}' (use letters, numbers, '-', '_')` });
        continue;
      }
      warnings.push(`name '${sourceName}' is not a valid server name here; imported as '${name}'`);
    }
    if (taken.has(name)) {
      result.skipped.push({ name: sourceName, reason: `another server in the file is also imported as '${name}'` });
      continue;
    }
    try {
      const spec = entrySpec(entry, warnings);
      const table = serverTable(spec);
      parseMcpServerConfig(name, table);
      taken.add(name);
      result.servers.push({ name, sourceName, spec, table, warnings });
    } catch (err) {
      const reason = err instanceof ConfigError ? err.detail : (err as Error).message;
      result.skipped.push({ name: sourceName, reason });
    }
  }
  return result;
}
