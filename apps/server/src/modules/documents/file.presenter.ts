import { DOCUMENT_ERROR_CODES, type DocumentErrorCode, type FileInfo } from '@aiplatform/contracts';
import type { FileRow } from '../../db/types.js';

/** Why a document failed, as one of the codes extraction gives. */
function failureOf(f: FileRow): DocumentErrorCode {
  const code = f.error_code as DocumentErrorCode | null;
  return code && DOCUMENT_ERROR_CODES.includes(code) ? code : 'FILE_UNREADABLE';
}

/** A file row as its owner sees it. */
export function presentFile(f: FileRow): FileInfo {
  return {
    id: f.id,
    name: f.original_name,
    mime: f.mime,
    size: f.size,
    kind: f.kind,
    status: f.status,
    error: f.status === 'failed' ? failureOf(f) : null,
    pages: f.pages,
    tokens: f.tokens,
    created_at: f.created_at,
  };
}
