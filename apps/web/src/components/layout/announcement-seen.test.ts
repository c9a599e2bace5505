import type { Announcement } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { newestMark, previewText, readSeenMark, toNotice, unreadNotices, writeSeenMark } from './announcement-seen';

function announcement(patch: Partial<Announcement>): Announcement {
  return {
    content: 'Hello',
    enabled: true,
    format: 'markdown',
    starts_at: null,
    ends_at: null,
    updated_at: '2025-01-02T10:00:00.000Z',
    updated_by: 1,
    visible: true,
    group_id: null,
    ...patch,
  };
}

class MemoryStorage implements Storage {
  private data = new Map<string, string>();
  get length() {
    return this.data.size;
  }
  clear() {
    this.data.clear();
  }
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  key(index: number) {
    return [...this.data.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
}

describe('announcement notices', () => {
  it('only visible announcements with content and a time become notices', () => {
    expect(toNotice('system', announcement({}))).toEqual({
      kind: 'system',
      content: 'Hello',
      updatedAt: '2025-01-02T10:00:00.000Z',
    });
    expect(toNotice('system', announcement({ visible: false }))).toBeNull();
    expect(toNotice('group', announcement({ content: '  ' }))).toBeNull();
    expect(toNotice('group', announcement({ updated_at: null }))).toBeNull();
    expect(toNotice('group', null)).toBeNull();
    expect(toNotice('system', announcement({ updated_by: 7 }), 7)).toBeNull();
    expect(toNotice('system', announcement({ updated_by: 7 }), 8)).not.toBeNull();
  });

  it('is unread when changed after the mark, and marking takes the newest time', () => {
    const a = toNotice('system', announcement({ updated_at: '2025-01-02T10:00:00.000Z' }))!;
    const b = toNotice('group', announcement({ updated_at: '2025-01-03T10:00:00.000Z' }))!;
    expect(unreadNotices([a, b], null)).toEqual([a, b]);
    expect(unreadNotices([a, b], '2025-01-02T10:00:00.000Z')).toEqual([b]);
    const mark = newestMark([a, b], null);
    expect(mark).toBe('2025-01-03T10:00:00.000Z');
    expect(unreadNotices([a, b], mark)).toEqual([]);
    expect(newestMark([], '2025-01-01T00:00:00.000Z')).toBe('2025-01-01T00:00:00.000Z');
  });

  it('keeps one mark per user', () => {
    const storage = new MemoryStorage();
    writeSeenMark(1, '2025-01-02T10:00:00.000Z', storage);
    expect(readSeenMark(1, storage)).toBe('2025-01-02T10:00:00.000Z');
    expect(readSeenMark(2, storage)).toBeNull();
    storage.setItem('aiplatform-announcements-seen:3', 'not a date');
    expect(readSeenMark(3, storage)).toBeNull();
  });

  it('previews markdown as plain first lines', () => {
    expect(previewText('# Title\n\n- **bold** item\n[link](https://x.example)\nfourth')).toBe('Title bold item link');
    expect(previewText('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
