import { describe, expect, it } from 'vitest';
import { type ExportLabels, exportFileName, formatConversationExport, formatTimestamp } from './export-format';

const labels: ExportLabels = {
  title: 'Title',
  model: 'Model',
  created: 'Created',
  exported: 'Exported',
  messageCount: 'Messages',
  user: 'User',
  assistant: 'Assistant',
  image: 'Image',
  document: 'Document',
  sources: 'Sources',
  page: (page) => `p. ${page}`,
  tokens: 'Tokens',
  stoppedSuffix: '[Generation stopped]',
};

// Local-time constructors keep the expectations independent of the machine's time zone.
const at = (h: number, m: number, s: number) => new Date(2026, 2, 1, h, m, s).toISOString();

describe('formatConversationExport', () => {
  it("names documents apart from images and lists an answer's sources with their pages", () => {
    const text = formatConversationExport({
      title: 'Contract',
      model: 'M',
      createdAt: at(9, 0, 0),
      exportedAt: new Date(2026, 2, 2, 10, 0, 0),
      labels,
      messages: [
        {
          role: 'user',
          content: 'Penalty?',
          created_at: at(9, 0, 1),
          tokens: 0,
          status: 'complete',
          files: [{ id: 'd', url: '', original_name: 'contract.pdf', kind: 'document' }],
        },
        {
          role: 'assistant',
          content: 'Seven percent.',
          created_at: at(9, 0, 2),
          tokens: 5,
          status: 'complete',
          files: [],
          citations: [
            { file_id: 'd', name: 'contract.pdf', page: 27, snippet: 'The penalty is seven percent' },
            { file_id: 'd', name: 'contract.pdf', page: null, snippet: '' },
          ],
        },
      ],
    });
    expect(text).toContain('Document: contract.pdf\nPenalty?');
    expect(text).toContain(
      'Seven percent.\nSources:\n- contract.pdf, p. 27: The penalty is seven percent\n- contract.pdf\nTokens: 5',
    );
  });

  it('writes the header and every message in the documented layout, every image named in order', () => {
    const text = formatConversationExport({
      title: 'Trip plan',
      model: 'GPT-4.1 mini',
      createdAt: at(9, 30, 0),
      exportedAt: new Date(2026, 2, 2, 10, 0, 5),
      labels,
      messages: [
        {
          role: 'user',
          content: 'What is in this picture?',
          created_at: at(9, 31, 0),
          tokens: 0,
          files: [
            { id: 'f1', url: '/api/chat/images/f1', original_name: 'cat.png' },
            { id: 'f2', url: '/api/chat/images/f2', original_name: 'dog.jpg' },
          ],
          status: 'complete',
        },
        {
          role: 'assistant',
          content: 'A cat.\nSleeping.',
          created_at: at(9, 31, 4),
          tokens: 12,
          files: [],
          status: 'complete',
        },
        { role: 'user', content: 'Tell me more', created_at: at(9, 32, 0), tokens: 0, files: [], status: 'complete' },
        { role: 'assistant', content: 'It is', created_at: at(9, 32, 1), tokens: 3, files: [], status: 'stopped' },
      ],
    });
    expect(text).toBe(
      [
        'Title: Trip plan',
        'Model: GPT-4.1 mini',
        'Created: 2026-03-01 09:30:00',
        'Exported: 2026-03-02 10:00:05',
        'Messages: 4',
        '==================================================',
        '',
        '[User] 2026-03-01 09:31:00',
        'Image: cat.png',
        'Image: dog.jpg',
        'What is in this picture?',
        '',
        '--------------------------------------------------',
        '',
        '[Assistant] 2026-03-01 09:31:04',
        'A cat.',
        'Sleeping.',
        'Tokens: 12',
        '',
        '--------------------------------------------------',
        '',
        '[User] 2026-03-01 09:32:00',
        'Tell me more',
        '',
        '--------------------------------------------------',
        '',
        '[Assistant] 2026-03-01 09:32:01',
        'It is [Generation stopped]',
        'Tokens: 3',
        '',
      ].join('\n'),
    );
  });
});

describe('exportFileName', () => {
  const date = new Date(2026, 0, 5, 7, 8, 9);

  it('joins the title and a timestamp', () => {
    expect(exportFileName('Trip plan', date)).toBe('Trip plan_20260105-070809.txt');
    expect(exportFileName('旅行计划', date)).toBe('旅行计划_20260105-070809.txt');
  });

  it('replaces characters file systems refuse and falls back for an empty title', () => {
    expect(exportFileName('a/b:c*d?"e"<f>|g\\h\ti', date)).toBe('a_b_c_d__e__f__g_h_i_20260105-070809.txt');
    expect(exportFileName('   ', date)).toBe('chat_20260105-070809.txt');
  });
});

describe('formatTimestamp', () => {
  it('keeps unreadable values as they are', () => {
    expect(formatTimestamp('not a date')).toBe('not a date');
  });
});
