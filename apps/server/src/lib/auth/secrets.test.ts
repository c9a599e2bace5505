import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveAppSecret } from './secrets.js';

describe('the application secret without APP_SECRET', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aip-secret-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    vi.restoreAllMocks();
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('is generated once into the data dir (mode 0600) and read back on later starts', () => {
    const dir = tempDir();
    const first = resolveAppSecret(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(48);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(resolveAppSecret(undefined, dir)).toBe(first);
    expect(fs.readdirSync(dir)).toEqual(['secret.key']);
  });

  it('is the one another instance sharing the data dir wrote while this one was starting', () => {
    const dir = tempDir();
    const file = path.join(dir, 'secret.key');
    const read = fs.readFileSync;
    // This instance looks first and finds nothing; the other one writes its key right after.
    vi.spyOn(fs, 'readFileSync').mockImplementationOnce(() => {
      fs.writeFileSync(file, 'the-other-instance-key-0123456789abcdef', { mode: 0o600 });
      throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    });
    expect(resolveAppSecret(undefined, dir)).toBe('the-other-instance-key-0123456789abcdef');
    expect(read(file, 'utf8')).toBe('the-other-instance-key-0123456789abcdef');
  });

  it('is APP_SECRET when set', () => {
    expect(resolveAppSecret('from-the-environment-0123456789', tempDir())).toBe('from-the-environment-0123456789');
  });
});
