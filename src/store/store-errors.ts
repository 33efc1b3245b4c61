// The store's error texts: every one names the setting and the environment variable involved, so
// an operator knows which database a replica was pointed at and what to fix.
import { errorMessage, SwitchboardError } from '../util/index.js';

/** Where a replica's database URL comes from: `[store] postgres_url_env_var` and the variable it names. */
export interface DatabaseSource {
  envVar: string;
}

export function urlNotSet(source: DatabaseSource): SwitchboardError {
  return new SwitchboardError(
    'store_not_configured',
    `[store] postgres_url_env_var names ${source.envVar}, but that environment variable is not set; set it to a postgres:// URL, or remove the setting to keep threads in files under $SWITCHBOARD_HOME`,
  );
}

/** Start-up could not reach the database: the replica refuses to serve rather than run without its state. */
export function unreachableAtStart(source: DatabaseSource, err: unknown): SwitchboardError {
  return new SwitchboardError(
    'store_unreachable',
    `cannot reach the PostgreSQL store at $${source.envVar} ([store] postgres_url_env_var): ${errorMessage(err)}; check that the database is running and that ${source.envVar} holds the right URL`,
    { cause: err },
  );
}

/** A store operation failed after start (the database went away, a query failed). */
export function storeUnavailable(source: DatabaseSource, what: string, err: unknown): SwitchboardError {
  return new SwitchboardError(
    'store_unavailable',
    `the PostgreSQL store ($${source.envVar}) is unavailable: could not ${what}: ${errorMessage(err)}; retry once the database is back`,
    { cause: err },
  );
}
