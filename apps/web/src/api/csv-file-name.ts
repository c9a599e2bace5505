const pad = (n: number) => String(n).padStart(2, '0');

/** `users-20250131-0945.csv`: the prefix and the local time of the download. */
export function csvFileName(prefix: string, now: Date = new Date()): string {
  const day = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  return `${prefix}-${day}-${pad(now.getHours())}${pad(now.getMinutes())}.csv`;
}
