import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { isDatabaseUnavailable } from '../lib/data/db-errors.js';

/** Where a lost database connection is reported (it is not an error of any request). */
export interface DatabaseLog {
  warn(obj: unknown, msg?: string): void;
}

/**
 * How long opening a PostgreSQL connection may take before the request fails (503):
 * an unreachable database must not hold requests for the operating system's TCP timeout.
 */
export const PG_CONNECT_TIMEOUT_MS = 2000;

/**
 * How long a request may wait for one of the pool's connections to come free. Longer than
 * opening one: under a burst (hundreds of sends at once) the queue is long but moving, and
 * refusing those requests would turn load into errors; a dead database fails at connect.
 */
export const PG_ACQUIRE_TIMEOUT_MS = 15_000;

/** A client whose own connection attempt gives up after PG_CONNECT_TIMEOUT_MS. */
class TimedClient extends pg.Client {
  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS });
  }
}

/** Names our connections in `pg_stat_activity`; an `application_name` in the URL wins. */
export const PG_APPLICATION_NAME = 'aiplatform';

/**
 * The PostgreSQL pool, built so that connections the server closes (restart, failover,
 * idle timeout, pg_terminate_backend) never crash the process and never serve a second
 * request: a lost idle connection is logged and dropped by the pool, and a connection
 * whose query failed because it was lost is discarded on release instead of being reused.
 */
export function createPgPool(url: string, log?: DatabaseLog): { pool: pg.Pool; dialectPool: PostgresPool } {
  const pool = new pg.Pool({
    connectionString: url,
    max: 20,
    // The pool's limit covers waiting in its queue; the client's own, the connection attempt.
    connectionTimeoutMillis: PG_ACQUIRE_TIMEOUT_MS,
    Client: TimedClient,
    application_name: PG_APPLICATION_NAME,
    // Lets the operating system notice a peer that vanished without closing the socket.
    keepAlive: true,
  });
  // Without this listener a lost idle connection is an uncaught error ending the process.
  pool.on('error', (err) => log?.warn({ err }, 'idle database connection lost'));
  // A connection lost while in use emits 'error' on its client as well (uncaught without a
  // listener); the query it ran fails too, and that request answers 503.
  pool.on('connect', (client) => client.on('error', () => undefined));

  const dialectPool: PostgresPool = {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let lost: Error | undefined;
      const noteLoss = (err: unknown) => {
        if (isDatabaseUnavailable(err)) lost = err as Error;
        throw err;
      };
      return {
        query: ((...args: Parameters<pg.PoolClient['query']>) => {
          const result = (client.query as (...a: unknown[]) => unknown)(...args);
          // A cursor (streamed rows) is returned as it is; a plain query is a promise.
          return result instanceof Promise ? result.catch(noteLoss) : result;
        }) as PostgresPoolClient['query'],
        // Released with the error, pg-pool closes the connection rather than pooling it again.
        release: () => client.release(lost),
      };
    },
    end: () => pool.end(),
  };
  return { pool, dialectPool };
}
