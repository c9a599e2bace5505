import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite binding for the Node that runs us. better-sqlite3 13 is built on Node-API and
 * is the one used on Node 22 and later: the 12 line wraps its objects in the raw
 * `node::ObjectWrap`, whose destructor on Node 24 aborts the process (`(env) != nullptr`)
 * when the garbage collector finalizes a statement at the wrong moment. 13 needs Node 22,
 * so on Node 20 the 12 line (installed under the alias `better-sqlite3-node20`) is loaded
 * instead. Both have the same API; everything that opens SQLite goes through this export.
 */
const nodeMajor = Number(process.versions.node.split('.')[0]);
const require = createRequire(import.meta.url);

export const SQLite = require(nodeMajor >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20') as typeof BetterSqlite3;
export type SqliteDatabase = BetterSqlite3.Database;
