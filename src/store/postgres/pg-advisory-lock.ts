// A lock every replica honours: a session advisory lock on its own pooled connection, so a replica
// that dies while holding it frees it with its connection.
import { errorMessage, type Logger } from '../../util/index.js';
import { storeUnavailable } from '../store-errors.js';
import type { Database } from './database.js';

/** How long a replica waits for another's lock before giving up (it then fails that request). */
const LOCK_WAIT_MS = 10_000;

/** Hold the advisory lock named `name` until the returned release runs; `what` names it in errors. */
export async function advisoryLock(db: Database, name: string, what: string, logger: Logger): Promise<() => Promise<void>> {
  let client;
  try {
    client = await db.pool.connect();
  } catch (err) {
    throw storeUnavailable(db.source, `take the ${what}`, err);
  }
  try {
    await client.query(`set lock_timeout = ${LOCK_WAIT_MS}`);
    await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [name]);
  } catch (err) {
    client.release(true);
    throw storeUnavailable(db.source, `take the ${what}`, err);
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    try {
      await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [name]);
      client.release();
    } catch (err) {
      // Dropping the connection frees the lock as well.
      logger.warn(`could not release the ${what}; dropping its connection`, { error: errorMessage(err) });
      client.release(true);
    }
  };
}
