// Each server's resource templates, kept to check a restricted caller's reads (a URI reached through a
// template) until the server's resources change; a failed list is not kept, so the next read asks again.
import type { ResourceTemplateType } from '@modelcontextprotocol/client';
import type { Reach } from './manager-operations.js';

export class TemplateCache {
  private readonly known = new Map<string, Promise<readonly string[]>>();

  constructor(private readonly list: (server: string, options: Reach) => Promise<ResourceTemplateType[]>) {}

  /** `server`'s URI templates; `shared` false lists them for this reach alone (a caller's own connection). */
  of(server: string, options: Reach, shared: boolean): Promise<readonly string[]> {
    const read = (reach: Reach) => this.list(server, reach).then((list) => list.map((t) => t.uriTemplate));
    if (!shared) return read(options);
    let known = this.known.get(server);
    if (!known) {
      known = read(options.signal ? { signal: options.signal } : {});
      known.catch(() => this.known.delete(server));
      this.known.set(server, known);
    }
    return known;
  }

  /** The server's resources changed, or it stopped: list again next time. */
  forget(server: string): void {
    this.known.delete(server);
  }
}
