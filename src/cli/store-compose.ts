// The store a command keeps shared state in, opened once from `[store]`: files under
// $SWITCHBOARD_HOME, or PostgreSQL (connected and migrated now; unreachable: exit 1 naming the variable).
import type { Config } from '../config/index.js';
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
