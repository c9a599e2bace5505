import {
  CreateAdminUserBodySchema,
  type CreateAdminUserBody,
  type Language,
  USER_CSV_IMPORT_MAX_ROWS,
} from '@aiplatform/contracts';
import { parse } from 'csv-parse/sync';
import { AppError } from '../../lib/http/errors.js';
import { isTranslationKey, translate } from '../../lib/runtime/i18n.js';

export interface ParsedRow {
  /** As a spreadsheet numbers it: the header is row 1. */
  row: number;
  body?: CreateAdminUserBody;
  errors: string[];
}

const MAX_BYTES = 2 * 1024 * 1024;

const blankToUndefined = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());
const numberOrText = (v: string | undefined) => {
  const t = blankToUndefined(v);
  return t !== undefined && /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
};

/**
 * Reads an uploaded user CSV (header row first; columns username, email, password,
 * phone, role, group_id, credits, remark) and checks each row against the same schema
 * as the create form. Cross-row and database checks come after, in the import service.
 */
export function parseUserCsv(buffer: Buffer, lang: Language): ParsedRow[] {
  if (buffer.length > MAX_BYTES) throw new AppError('FILE_TOO_LARGE');
  let records: Record<string, string>[];
  try {
    records = parse(buffer, {
      bom: true,
      columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
    });
  } catch {
    throw new AppError('CSV_INVALID', {}, { errors: [translate(lang, 'server.csv.unreadable')] });
  }
  if (records.length === 0) throw new AppError('CSV_INVALID', {}, { errors: [translate(lang, 'server.csv.empty')] });
  if (records.length > USER_CSV_IMPORT_MAX_ROWS) {
    throw new AppError(
      'CSV_INVALID',
      {},
      { errors: [translate(lang, 'server.csv.tooManyRows', { max: USER_CSV_IMPORT_MAX_ROWS })] },
    );
  }
  return records.map((r, i) => {
    const candidate = {
      username: r.username ?? '',
      email: r.email ?? '',
      password: r.password ?? '',
      phone: blankToUndefined(r.phone),
      role: blankToUndefined(r.role),
      group_id: numberOrText(r.group_id),
      credits_quota: numberOrText(r.credits),
      remark: blankToUndefined(r.remark),
    };
    const parsed = CreateAdminUserBodySchema.safeParse(candidate);
    if (parsed.success) return { row: i + 2, body: parsed.data, errors: [] };
    const errors = parsed.error.issues.map((issue) =>
      isTranslationKey(lang, issue.message)
        ? translate(lang, issue.message)
        : translate(lang, 'validation.invalidValue', { field: issue.path.join('.') }),
    );
    return { row: i + 2, errors: [...new Set(errors)] };
  });
}
