/** An absolute http(s) address, as the server accepts for model endpoints and module URLs. */
export function isHttpUrl(value: string): boolean {
  const url = value.trim();
  if (!/^https?:\/\/[^\s]+$/i.test(url)) return false;
  try {
    return Boolean(new URL(url).host);
  } catch {
    return false;
  }
}
