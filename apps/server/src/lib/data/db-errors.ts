/** A unique-index violation, as PostgreSQL (23505) or SQLite reports it. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * A foreign-key violation, as PostgreSQL (23503) or SQLite reports it: a row the write
 * refers to was deleted meanwhile (checked a moment before, gone at the insert).
 */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Socket errors of a database that is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL states meaning "the server cannot serve you now", not "your query is wrong":
 * class 08 (connection exception), 57P01–57P03 (terminated by an administrator, a crash,
 * or still starting up) and 53300 (too many connections).
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** node-postgres reports a lost or timed-out connection with a plain Error and no code. */
const PG_CONNECTION_MESSAGES = [
  'timeout exceeded when trying to connect',
  // A client's own connection attempt ran out of time (its `connectionTimeoutMillis`).
  'timeout expired',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

function isUnavailableOne(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || isUnavailableSqlState(code)) return true;
    // SQLite still locked once its busy timeout has run out.
    if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
  }
  return PG_CONNECTION_MESSAGES.some((m) => err.message.startsWith(m));
}

/**
 * True when the database could not be reached or dropped the connection: the request
 * may well succeed when retried, so it answers 503 rather than 500. Causes are followed
 * a few levels, since drivers wrap the socket error they met.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    if (isUnavailableOne(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Codes of a full disk: the file system's (ENOSPC no space, EDQUOT over the disk quota),
 * SQLite's (SQLITE_FULL: the database file cannot grow) and PostgreSQL's (53100
 * disk_full). Nothing the client sent is wrong and the request may succeed once space is
 * made, so it answers 503 like a database that is away.
 */
const STORAGE_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);

/** True when a write failed because the disk (or the database's share of it) is full; causes followed as above. */
export function isStorageFull(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (current instanceof Error && typeof code === 'string' && STORAGE_FULL_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Either of the above: nothing wrong with the request, worth retrying later (503). */
export function isWorthRetrying(err: unknown): boolean {
  return isDatabaseUnavailable(err) || isStorageFull(err);
}
