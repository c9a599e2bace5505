import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A query built with Kysely or written as raw SQL. */
const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql(<[^>]*>)?`/;

/**
 * Where SQL may live: repos, the database layer, and the two single writers of balances
 * and their ledgers (each is the repo of its tables: one conditional update and its row).
 */
function maySpeakSql(relative: string): boolean {
  return (
    relative.endsWith('.repo.ts') ||
    relative.startsWith(`db${path.sep}`) ||
    relative.endsWith(path.join('credits', 'credits-writer.ts')) ||
    relative.endsWith(path.join('groups', 'pool-writer.ts'))
  );
}

describe('SQL', () => {
  it('is written only in repos, db/ and the two balance writers', () => {
    const offenders = fs
      .readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !maySpeakSql(file))
      .filter((file) => QUERY.test(fs.readFileSync(path.join(srcDir, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
