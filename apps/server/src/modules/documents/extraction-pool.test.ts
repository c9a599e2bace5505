import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionPool } from './extraction-pool.js';

/** The worker threads' limits: a document past them fails with a code, and the pool goes on. */
describe('the extraction pool', () => {
  let dir: string;
  const file = (name: string, content: string | Buffer) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, content);
    return p;
  };
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-extract-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a document in a worker thread', async () => {
    const pool = new ExtractionPool({ threads: 1, timeMs: 60_000, memoryMb: 256 });
    try {
      const out = await pool.extract(
        { path: file('a.md', '# Title\n\nBody text.'), format: 'text' },
        new AbortController().signal,
      );
      expect(out).toMatchObject({ ok: true, pages: [{ page: 1, text: '# Title\n\nBody text.' }] });
    } finally {
      await pool.close();
    }
  });

  it('ends a worker past the time limit: FILE_UNREADABLE', async () => {
    // Far less than a worker needs even to start.
    const pool = new ExtractionPool({ threads: 1, timeMs: 1, memoryMb: 256 });
    try {
      const out = await pool.extract({ path: file('b.txt', 'text'), format: 'text' }, new AbortController().signal);
      expect(out).toMatchObject({ ok: false, code: 'FILE_UNREADABLE', reason: 'extraction timed out' });
    } finally {
      await pool.close();
    }
  });

  it('ends a worker past the memory limit: FILE_TOO_LARGE, and the next document is read', async () => {
    const pool = new ExtractionPool({ threads: 1, timeMs: 60_000, memoryMb: 64 });
    try {
      // Some 120 MB of lines as JavaScript strings once split: far past a 64 MB heap.
      const big = file('c.txt', `${'x'.repeat(59)}\n`.repeat(1_000_000));
      const out = await pool.extract({ path: big, format: 'text' }, new AbortController().signal);
      expect(out).toMatchObject({ ok: false, code: 'FILE_TOO_LARGE' });
      const next = await pool.extract({ path: file('d.txt', 'fine'), format: 'text' }, new AbortController().signal);
      expect(next).toMatchObject({ ok: true });
    } finally {
      await pool.close();
    }
  });

  it('stops a reading when the app closes', async () => {
    const pool = new ExtractionPool({ threads: 1, timeMs: 60_000, memoryMb: 256 });
    const closing = new AbortController();
    closing.abort();
    try {
      await expect(pool.extract({ path: file('e.txt', 'x'), format: 'text' }, closing.signal)).rejects.toThrow();
    } finally {
      await pool.close();
    }
  });
});
