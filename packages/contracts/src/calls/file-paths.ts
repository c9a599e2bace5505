/*
 * Paths of the routes that are plain HTTP rather than JSON calls: uploads and downloads.
 * They live apart from the call tables and hold no schema, so a page can import a path
 * without bringing the tables' schemas (and zod) into its bundle.
 */

/** The avatar upload (multipart field `avatar`). */
export const AUTH_FILE_PATHS = {
  uploadAvatar: '/auth/avatar',
  /** A ZIP of everything of the signed-in person's (profile, conversations, ledger, files). */
  exportData: '/auth/export',
} as const;

/** The administration's CSV transfers and image uploads. */
export const ADMIN_FILE_PATHS = {
  usersExport: '/admin/users/export.csv',
  usersImport: '/admin/users/import',
  /** `?reason=` (required): the same ZIP as `/auth/export`, of one user; super administrators, audited. */
  userDataExport: '/admin/users/:id/export',
  auditExport: '/admin/audit-logs/export.csv',
  /** `?days=&group_id=`: one row per day, user and model, for charging usage back to departments. */
  statsExport: '/admin/stats/export.csv',
  /** multipart field `logo`; PNG, JPEG, GIF or WebP by content. */
  uploadLogo: '/admin/settings/upload-logo',
  /** multipart field `favicon`; ICO, PNG, JPEG, GIF or WebP by content. */
  uploadFavicon: '/admin/settings/upload-favicon',
} as const;

/** The chat's uploads: a document or an image (multipart field `file`), answered with its `FileInfo` (201). */
export const CHAT_FILE_PATHS = {
  uploadFile: '/chat/files',
} as const;
