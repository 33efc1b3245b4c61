// What stdio and HTTP serving share: the options, one product's served state (task table, rounds,
// handler tables) and the two steps every connection takes (a listen stream told, Codex's refusals).
import type { AuthInfo, Transport } from '@modelcontextprotocol/server';
import type { Logger } from '../../util/index.js';
import type { Telemetry } from '../../util/telemetry/index.js';
import { UNRESTRICTED, type AccessPolicy } from '../access/access-rules.js';
import type { AuditSink } from '../access/audit-trail.js';
import { callerOf } from '../access/caller.js';
import { InputFlows } from '../flows/input-flows.js';
import type { RequestStateKey } from '../flows/request-state.js';
import { TaskIds } from '../flows/task-ids.js';
import { RequestGuard } from '../rpc/request-guard.js';
import { handlerTables, type Served } from './build-server.js';
import { HostTasks } from './host-tasks.js';
import type { Product } from './product.js';

export interface ServeOptions {
  logger: Logger;
  /** [server_auth] rules: what each HTTP caller may see and use (absent: everyone everything). */
  access?: AccessPolicy;
  /** Where one record per served request goes. */
  audit?: AuditSink;
  /** A server span per request on stdio (HTTP requests are observed by the host's ops). */
  telemetry?: Telemetry;
}

export function served(product: Product, options: ServeOptions, key: RequestStateKey | undefined): Served & { ids: TaskIds } {
  const ids = new TaskIds(key);
  const tasks = new HostTasks(ids, options.logger);
  return { product, access: options.access, flows: new InputFlows({ logger: options.logger, ...(key ? { key } : {}) }), tasks, logger: options.logger, ids, handlers: handlerTables(product, tasks) };
}

/** A listen stream opened, told to the product with its caller and that caller's view. */
export function listened(product: Product, s: Served, uris: string[], auth: AuthInfo | undefined, ended: AbortSignal): void {
  const caller = callerOf(auth);
  product.listening?.(uris, s.access?.viewFor(caller) ?? UNRESTRICTED, ended, caller);
}

/** Codex's refusal texts before the SDK sees a request, for a product that has them. */
export function guarded(s: Served, transport: Transport, stdio: boolean): { transport: Transport; guard?: RequestGuard } {
  const texts = s.product.texts;
  if (!texts) return { transport };
  const methods = (era: 'legacy' | 'modern') => new Set(s.handlers[era].map(([m]) => m));
  const legacy = new Set(['initialize', 'ping', ...methods('legacy')]);
  const modern = stdio ? new Set(['server/discover', ...[...methods('modern')].filter((m) => !legacy.has(m))]) : new Set<string>();
  const guard = new RequestGuard(transport, legacy, texts, modern);
  return { transport: guard, guard };
}
