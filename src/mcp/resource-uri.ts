// One spelling per resource URI, so that rules about a resource hold however a caller spells it:
// scheme and host in lower case, dot segments removed, percent-encoding of unreserved characters
// decoded (and the rest in upper-case hex). A URI reached through a template also names the
// resource its variables name once written plainly (`text/01` names `text/1`).
import type { UriTemplate } from '@modelcontextprotocol/client';

/**
 * The SDK's template class, loaded on first use: a static import would load the whole SDK client
 * with the manager's layer, where a command answering from snapshots (`mcp tools --no-wait`) needs none.
 */
let templateClass: Promise<typeof UriTemplate> | undefined;
const loadTemplateClass = () => (templateClass ??= import('@modelcontextprotocol/client').then((m) => m.UriTemplate));

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** `uri` in its one spelling; a string that is no URI is returned as it is. */
export function canonicalUri(uri: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):(\/\/([^/?#]*))?([^?#]*)(\?[^#]*)?(#.*)?$/.exec(uri);
  if (!match) return uri;
  const [, scheme, , authority, path, query = '', fragment = ''] = match;
  const host = authority === undefined ? '' : `//${lowerHost(authority)}`;
  return `${scheme!.toLowerCase()}:${host}${removeDotSegments(normalizePercent(path!))}${normalizePercent(query)}${normalizePercent(fragment)}`;
}

/** The host part of an authority in lower case (user info and port as they are). */
function lowerHost(authority: string): string {
  const at = authority.lastIndexOf('@');
  const user = at >= 0 ? authority.slice(0, at + 1) : '';
  return user + normalizePercent(authority.slice(at + 1)).toLowerCase();
}

function normalizePercent(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/** RFC 3986 section 5.2.4. */
function removeDotSegments(path: string): string {
  if (!path.includes('.')) return path;
  const out: string[] = [];
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const last = i === segments.length - 1;
    if (s === '.') {
      if (last) out.push('');
    } else if (s === '..') {
      if (out.length > 1 || (out.length === 1 && out[0] !== '')) out.pop();
      if (last) out.push('');
    } else out.push(s);
  }
  return out.join('/');
}

/**
 * The resources `uri` names through `templates`: for each template it matches, the template written
 * out with its variables in their plain form (a whole number without leading zeros, percent-encoding
 * decoded), besides `uri` itself.
 */
export async function namedThroughTemplates(uri: string, templates: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  if (templates.length === 0) return [];
  const UriTemplate = await loadTemplateClass();
  for (const template of templates) {
    let t: UriTemplate;
    try {
      t = new UriTemplate(template);
    } catch {
      continue;
    }
    const vars = t.match(uri);
    if (!vars) continue;
    const plain = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, Array.isArray(v) ? v.map(plainValue) : plainValue(v)]));
    out.add(canonicalUri(t.expand(plain)));
  }
  out.delete(uri);
  return [...out];
}

function plainValue(value: string): string {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    // not percent-encoded text: kept as it came
  }
  return /^[+-]?\d+$/.test(decoded) ? String(BigInt(decoded)) : decoded;
}
