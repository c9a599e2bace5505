import { ADMIN_FILE_PATHS, AUTH_FILE_PATHS, callPath } from '@aiplatform/contracts';
import { saveBlob } from './admin-files';
import { http } from './http';

const pad = (n: number) => String(n).padStart(2, '0');
const day = (now = new Date()) => `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;

/**
 * The ZIP routes need the bearer token, which a plain link cannot send, so the archive is
 * fetched through the API client and then saved from memory under a dated name.
 */
export async function downloadMyData(): Promise<void> {
  const response = await http.get<Blob>(AUTH_FILE_PATHS.exportData, { responseType: 'blob' });
  saveBlob(response.data, `my-data-${day()}.zip`);
}

/** A super administrator's copy of one person's data; the reason goes into the audit log. */
export async function exportUserData(userId: number, reason: string): Promise<void> {
  const response = await http.get<Blob>(callPath(ADMIN_FILE_PATHS.userDataExport, { id: userId }), {
    params: { reason },
    responseType: 'blob',
  });
  saveBlob(response.data, `user-${userId}-data-${day()}.zip`);
}
