// One index kept current over a changing catalog: rebuilt only when the set of tools or one of their
// definitions changed (a list_changed, a server that came or went), else reused.
import type { ToolSearchDoc } from './search-doc.js';
import { ToolSearchIndex } from './tool-search-index.js';

function fingerprint(docs: readonly ToolSearchDoc[], seen: WeakMap<object, string>): string {
  const parts: string[] = [];
  for (const d of docs) {
    let schema = seen.get(d.inputSchema);
    if (schema === undefined) {
      schema = JSON.stringify(d.inputSchema);
      seen.set(d.inputSchema, schema);
    }
    parts.push(d.name, d.server, d.tool, d.title ?? '', d.description, schema);
  }
  return parts.join('\u0000');
}

export class ToolSearchCache {
  private current: { key: string; index: Promise<ToolSearchIndex> } | undefined;
  private readonly schemaText = new WeakMap<object, string>();

  /** The index over `docs`, built again only when they differ from the last call's. */
  index(docs: readonly ToolSearchDoc[]): Promise<ToolSearchIndex> {
    const key = fingerprint(docs, this.schemaText);
    if (this.current?.key !== key) {
      const index = ToolSearchIndex.build([...docs]);
      this.current = { key, index };
      // A failed build is not kept: the next call tries again.
      index.catch(() => {
        if (this.current?.index === index) this.current = undefined;
      });
    }
    return this.current.index;
  }
}
