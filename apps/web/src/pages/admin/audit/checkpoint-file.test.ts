import { describe, expect, it } from 'vitest';
import { checkpointFileContent, checkpointFileName, readCheckpointFile } from './checkpoint-file';

const checkpoint = {
  format: 'aiplatform.audit-checkpoint.v1' as const,
  count: 42,
  last_id: 42,
  hash: 'a'.repeat(64),
  created_at: '2025-01-31T09:45:12.345Z',
  signature: 'b'.repeat(64),
};

describe('audit checkpoint files', () => {
  it('names the file by the rows it covers and its time', () => {
    expect(checkpointFileName(checkpoint)).toBe('audit-checkpoint-42-20250131-0945.json');
  });

  it('reads back what it wrote, with or without a byte order mark', () => {
    const text = checkpointFileContent(checkpoint);
    expect(readCheckpointFile(text)).toEqual(checkpoint);
    expect(readCheckpointFile(`\uFEFF${text}`)).toEqual(checkpoint);
  });

  it('reads anything but a JSON object as no checkpoint', () => {
    for (const text of ['', 'not json', '[1,2]', '42', 'null', '"text"']) expect(readCheckpointFile(text)).toBeNull();
  });
});
