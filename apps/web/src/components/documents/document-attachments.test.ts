import type { FileInfo, MessageFile } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import {
  chipState,
  documentAttachment,
  planKey,
  pollWhileProcessing,
  sendHold,
  splitPicked,
  withAttachments,
} from './document-attachments';

const info = (over: Partial<FileInfo>): FileInfo => ({
  id: 'd1',
  name: 'contract.pdf',
  mime: 'application/pdf',
  size: 1000,
  kind: 'document',
  status: 'processing',
  error: null,
  pages: null,
  tokens: null,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const image = (id: string): MessageFile => ({ id, url: `/api/chat/images/${id}`, original_name: `${id}.png` });
const doc = (id: string): MessageFile => documentAttachment({ id, name: `${id}.pdf` });

describe('chipState', () => {
  it('reads as processing until the server has answered, then as it says', () => {
    expect(chipState(undefined)).toEqual({ phase: 'processing' });
    expect(chipState(info({ status: 'processing' }))).toEqual({ phase: 'processing' });
    expect(chipState(info({ status: 'ready', pages: 40, tokens: 12_000 }))).toEqual({
      phase: 'ready',
      pages: 40,
      tokens: 12_000,
    });
  });

  it('names the failure by its translated error code', () => {
    expect(chipState(info({ status: 'failed', error: 'FILE_ENCRYPTED' }))).toEqual({
      phase: 'failed',
      errorKey: 'errors:FILE_ENCRYPTED',
    });
    expect(chipState(info({ status: 'failed', error: null }))).toEqual({
      phase: 'failed',
      errorKey: 'errors:FILE_UNREADABLE',
    });
  });

  it('polls only while the document is being read', () => {
    expect(pollWhileProcessing(undefined)).toBeGreaterThan(0);
    expect(pollWhileProcessing(info({ status: 'processing' }))).toBeGreaterThan(0);
    expect(pollWhileProcessing(info({ status: 'ready' }))).toBe(false);
    expect(pollWhileProcessing(info({ status: 'failed' }))).toBe(false);
  });
});

describe('sendHold', () => {
  const infos = new Map<string, FileInfo>([
    ['a', info({ id: 'a', status: 'ready', pages: 1, tokens: 10 })],
    ['b', info({ id: 'b', status: 'processing' })],
    ['c', info({ id: 'c', status: 'failed', error: 'FILE_UNREADABLE' })],
  ]);

  it('lets a send go when every document is ready (or there is none)', () => {
    expect(sendHold([], infos)).toBeNull();
    expect(sendHold([doc('a')], infos)).toBeNull();
  });

  it('holds it while one is read or unknown, and asks to remove a failed one first', () => {
    expect(sendHold([doc('a'), doc('b')], infos)).toBe('processing');
    expect(sendHold([doc('x')], infos)).toBe('processing');
    expect(sendHold([doc('b'), doc('c')], infos)).toBe('failed');
  });
});

describe('withAttachments', () => {
  it('keeps the order, each id once', () => {
    const list = withAttachments([image('i1')], [doc('d1'), image('i1'), doc('d1'), image('i2')]);
    expect(list.map((f) => f.id)).toEqual(['i1', 'd1', 'i2']);
  });

  it('limits images and documents each by their own count', () => {
    const images = ['1', '2', '3', '4', '5'].map((n) => image(`i${n}`));
    const docs = Array.from({ length: 12 }, (_, n) => doc(`d${n}`));
    const list = withAttachments([], [...images, ...docs]);
    expect(list.filter((f) => f.kind !== 'document')).toHaveLength(4);
    expect(list.filter((f) => f.kind === 'document')).toHaveLength(10);
  });
});

describe('splitPicked', () => {
  it('sends images as images and everything else as documents', () => {
    const files = [
      { name: 'a.png', type: 'image/png' },
      { name: 'b.pdf', type: 'application/pdf' },
      { name: 'c.jpg', type: '' },
      { name: 'd.svg', type: 'image/svg+xml' },
      { name: 'e.md', type: '' },
    ];
    const { images, documents } = splitPicked(files);
    expect(images.map((f) => f.name)).toEqual(['a.png', 'c.jpg']);
    expect(documents.map((f) => f.name)).toEqual(['b.pdf', 'd.svg', 'e.md']);
  });
});

describe('planKey', () => {
  it('says whole document or passages, and nothing without documents', () => {
    expect(planKey(undefined)).toBeNull();
    expect(planKey({ mode: 'none', document_tokens: 0, credits: 1 })).toBeNull();
    expect(planKey({ mode: 'full', document_tokens: 900, credits: 2 })).toBe('chat:documents.plan.full');
    expect(planKey({ mode: 'retrieval', document_tokens: 3000, credits: 4 })).toBe('chat:documents.plan.retrieval');
  });
});
