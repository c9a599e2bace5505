import fs from 'node:fs';

/**
 * 1 GiB: room for about a hundred of the largest chat images and the database's growth
 * meanwhile, enough for an operator to react before writes start failing.
 */
export const DEFAULT_MIN_FREE_DISK_MB = 1024;

/** What `fs.statfs` tells of a volume (tests hand in their own). */
export type StatFsReader = (dir: string) => Promise<{ bavail: number | bigint; bsize: number | bigint }>;

export interface DiskSpace {
  /** True while at least the configured minimum is free. */
  ok: boolean;
  /** Megabytes this process may still write on the volume; null when it could not be read. */
  freeMb: number | null;
}

/**
 * Checks the free space of the volume holding `dir` (the data directory: uploads and the
 * SQLite database) against `minFreeMb`. Free means available to this unprivileged process
 * (`bavail`), not the blocks reserved for root. A volume that cannot be read counts as low.
 */
export function diskSpaceCheck(
  dir: string,
  minFreeMb: number,
  statfs: StatFsReader = (d) => fs.promises.statfs(d),
): () => Promise<DiskSpace> {
  return async () => {
    try {
      const s = await statfs(dir);
      const freeMb = Math.floor((Number(s.bavail) * Number(s.bsize)) / (1024 * 1024));
      return { ok: freeMb >= minFreeMb, freeMb };
    } catch {
      return { ok: false, freeMb: null };
    }
  };
}
