import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatFsReader } from '../../lib/data/disk-space.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

const MIB = 1024 * 1024;

describe('readiness and the data directory’s free space', () => {
  /** What the volume reports next: free megabytes, or a failure to read it. */
  let free: number | 'unreadable' = 5000;
  let asked: string[] = [];
  const statfs: StatFsReader = (dir) => {
    asked.push(dir);
    if (free === 'unreadable') return Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' }));
    return Promise.resolve({ bavail: BigInt(free * 256), bsize: BigInt(4096) });
  };
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ statfs, config: { minFreeDiskMb: 1024 } });
  });
  afterAll(async () => {
    await t.close();
  });

  const ready = async () => {
    const res = await t.get<never>('/api/ready');
    return { http: res.status, ...(JSON.parse(res.text) as Record<string, unknown>) };
  };

  it('reports the free megabytes of the data directory’s volume, and disk: true above the minimum', async () => {
    free = 5000;
    asked = [];
    expect(await ready()).toEqual({
      http: 200,
      status: 'ready',
      database: true,
      cache: true,
      disk: true,
      disk_free_mb: 5000,
    });
    expect(asked).toEqual([t.config.dataDir]);
  });

  it('reports disk: false below the minimum, and stays ready (reads still work)', async () => {
    free = 1023;
    expect(await ready()).toMatchObject({ http: 200, status: 'ready', disk: false, disk_free_mb: 1023 });
    free = 0;
    expect(await ready()).toMatchObject({ http: 200, disk: false, disk_free_mb: 0 });
    free = 1024;
    expect(await ready()).toMatchObject({ disk: true, disk_free_mb: 1024 });
  });

  it('reports disk: false when the volume cannot be read', async () => {
    free = 'unreadable';
    expect(await ready()).toMatchObject({ http: 200, disk: false, disk_free_mb: null });
  });
});

describe('readiness on the real volume', () => {
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });

  it('reads the data directory’s volume with fs.statfs against MIN_FREE_DISK_MB', async () => {
    // No volume has this much free: the real reading is below it.
    t = await createTestApp({ config: { minFreeDiskMb: 100_000_000 } });
    const res = JSON.parse((await t.get<never>('/api/ready')).text) as { disk: boolean; disk_free_mb: number };
    expect(res.disk).toBe(false);
    expect(res.disk_free_mb).toBeGreaterThan(0);
    expect(res.disk_free_mb * MIB).toBeLessThan(100_000_000 * MIB);
  });
});
