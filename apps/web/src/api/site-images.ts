import { ADMIN_FILE_PATHS, type UploadedSiteImage } from '@aiplatform/contracts';
import { request } from './http';

export type SiteImageKind = 'logo' | 'favicon';

/** The server's limit; checked here first so a large file is refused before it is sent. */
export const SITE_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/** What the server accepts (it decides by content; SVG never, since it can carry script). */
export const SITE_IMAGE_ACCEPT: Record<SiteImageKind, string> = {
  logo: 'image/png,image/jpeg,image/gif,image/webp',
  favicon: 'image/x-icon,image/vnd.microsoft.icon,.ico,image/png,image/jpeg,image/gif,image/webp',
};

/**
 * Uploads a logo or favicon (multipart, field named after the kind: plain HTTP, not a
 * described call) and resolves to its address. The site only shows it once that address
 * is saved in the settings.
 */
export async function uploadSiteImage(kind: SiteImageKind, file: File): Promise<string> {
  const form = new FormData();
  form.append(kind, file);
  const path = kind === 'logo' ? ADMIN_FILE_PATHS.uploadLogo : ADMIN_FILE_PATHS.uploadFavicon;
  const { url } = await request<UploadedSiteImage>({ method: 'POST', url: path, data: form });
  return url;
}
