// The store a command keeps shared state in, opened once from `[store]`: files under
// $SWITCHBOARD_HOME, or PostgreSQL (connected and migrated now; unreachable: exit 1 naming the variable).
import type { Config } from '../config/index.js';
import type { RequestStateKey, SharedSessionRecord, SharedSessions } from '../mcp-host/http/index.js';
import { openStore, type Store } from '../store/index.js';
import { errorMessage } from '../util/index.js';
import type { CliContext } from './context.js';
import { CommandFailed } from './exit-codes.js';

export async function openConfiguredStore(ctx: CliContext, config: Config): Promise<Store> {
  try {
    return await openStore({ home: config.home, settings: config.store, env: ctx.env, logger: ctx.logger });
  } catch (err) {
    throw new CommandFailed(errorMessage(err), { cause: err });
  }
}

/**
 * The store's shared sessions for one endpoint as the HTTP host takes them, or undefined with the file
 * store. The store keeps messages as plain JSON; the host's SDK types are restored here, in one place.
 */
export function sharedSessions(store: Store, scope: string): SharedSessions | undefined {
  const sessions = store.httpSessions(scope);
  if (!sessions) return undefined;
  return {
    save: (record) => sessions.save(record),
    load: async (id) => (await sessions.load(id)) as SharedSessionRecord | null,
    touch: (id) => sessions.touch(id),
    delete: (id) => sessions.delete(id),
    expire: (idleMs) => sessions.expire(idleMs),
    events: (id) => sessions.events(id) as unknown as ReturnType<SharedSessions['events']>,
  };
}

/**
 * The request-state key every replica on the store shares (so a retry opens on any of them), as the
 * modern legs take it; undefined with the file store (a random key per process, as before).
 */
export function sharedRequestStateKey(store: Store): { requestStateKey: RequestStateKey } | Record<string, never> {
  const secret = store.sharedSecret('request-state');
  if (!secret) return {};
  // Asked now (the store just answered); a failure surfaces when the first state is sealed or opened.
  secret.catch(() => {});
  return { requestStateKey: { key: async () => new Uint8Array(await secret) } };
}
