import { ADMIN_FILE_PATHS, USER_CSV_IMPORT_COLUMNS, type UserImportReport } from '@aiplatform/contracts';
import { isApiError } from './api-error';
import { withoutEmpty } from './call';
import { csvFileName } from './csv-file-name';
import { http, request } from './http';

/** Hands a downloaded file to the browser under the given name. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has started the download; the URL is released once the browser took it.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The export routes need the bearer token, which a plain link cannot send, so the file
 * is fetched through the API client and then saved from memory.
 */
async function downloadCsv(path: string, query: Record<string, unknown>, prefix: string): Promise<void> {
  const response = await http.get<Blob>(path, { params: withoutEmpty(query), responseType: 'blob' });
  saveBlob(response.data, csvFileName(prefix));
}

export const exportUsersCsv = (query: Record<string, unknown>) =>
  downloadCsv(ADMIN_FILE_PATHS.usersExport, query, 'users');

export const exportAuditCsv = (query: Record<string, unknown>) =>
  downloadCsv(ADMIN_FILE_PATHS.auditExport, query, 'audit');

export const exportStatsCsv = (query: Record<string, unknown>) =>
  downloadCsv(ADMIN_FILE_PATHS.statsExport, query, 'usage');

/** An empty import file with the expected header row, UTF-8 with BOM so spreadsheets read Chinese. */
export function downloadImportTemplate(): void {
  const header = USER_CSV_IMPORT_COLUMNS.join(',');
  saveBlob(new Blob(['\uFEFF', `${header}\r\n`], { type: 'text/csv;charset=utf-8' }), 'users-import-template.csv');
}

function isImportReport(value: unknown): value is UserImportReport {
  if (!value || typeof value !== 'object') return false;
  const report = value as Partial<UserImportReport>;
  return typeof report.total === 'number' && Array.isArray(report.errors);
}

/**
 * Uploads a user CSV. A file with bad rows is refused with `CSV_INVALID` and the same
 * report as a dry run, so both outcomes resolve to a report; other failures reject.
 */
export async function importUsersCsv(file: File, dryRun: boolean): Promise<UserImportReport> {
  const form = new FormData();
  form.append('file', file);
  try {
    return await request<UserImportReport>({
      method: 'POST',
      url: ADMIN_FILE_PATHS.usersImport,
      params: { dry_run: String(dryRun) },
      data: form,
    });
  } catch (error) {
    if (isApiError(error) && error.code === 'CSV_INVALID' && isImportReport(error.data)) return error.data;
    throw error;
  }
}
