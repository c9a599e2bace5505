import type { AuditCheckpoint } from '@aiplatform/contracts';

/** `audit-checkpoint-1234-20250131-0945.json`: the rows it covers and when it was signed (UTC). */
export function checkpointFileName(c: Pick<AuditCheckpoint, 'count' | 'created_at'>): string {
  const stamp = c.created_at.slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `audit-checkpoint-${c.count}-${stamp}.json`;
}

/** The file an administrator keeps: the checkpoint as the server answered it, readable. */
export function checkpointFileContent(c: AuditCheckpoint): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}

/** A saved checkpoint read back: the object in the file, or null when the file is not a JSON object. */
export function readCheckpointFile(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
