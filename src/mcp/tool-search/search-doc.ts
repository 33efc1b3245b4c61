// What the search index knows of one tool: its names, server, title, description and parameters,
// and the text of each field as it is indexed.
import { splitWords } from './search-terms.js';

/** One tool as the index sees it. `name` is the model-visible name (the key of every result). */
export interface ToolSearchDoc {
  name: string;
  server: string;
  /** The raw name on its server. */
  tool: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The indexed fields of a tool (what MiniSearch stores per document). */
export interface DocFields {
  id: number;
  name: string;
  server: string;
  title: string;
  description: string;
  params: string;
}

/** Parameter names and descriptions, nested objects and array items included (bounded depth). */
export function parameterText(schema: unknown, depth = 0): string {
  if (depth > 3 || typeof schema !== 'object' || schema === null) return '';
  const props = (schema as { properties?: unknown }).properties;
  const parts: string[] = [];
  if (typeof props === 'object' && props !== null) {
    for (const [key, value] of Object.entries(props as Record<string, unknown>)) {
      parts.push(splitWords(key).join(' '));
      if (typeof value === 'object' && value !== null) {
        const d = (value as { description?: unknown }).description;
        if (typeof d === 'string') parts.push(d);
        parts.push(parameterText(value, depth + 1));
        parts.push(parameterText((value as { items?: unknown }).items, depth + 1));
      }
    }
  }
  return parts.filter((p) => p !== '').join(' ');
}

export function docFields(doc: ToolSearchDoc, id: number): DocFields {
  return {
    id,
    // The raw name's words carry the meaning; the model-visible name adds only the server.
    name: splitWords(doc.tool).join(' '),
    server: splitWords(doc.server).join(' '),
    title: doc.title ?? '',
    description: doc.description,
    params: parameterText(doc.inputSchema),
  };
}
