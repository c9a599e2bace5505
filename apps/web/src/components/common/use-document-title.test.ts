import { describe, expect, it } from 'vitest';
import { formatDocumentTitle } from './use-document-title';

describe('formatDocumentTitle', () => {
  it('puts the page before the site name', () => {
    expect(formatDocumentTitle('Dashboard', 'AI Platform')).toBe('Dashboard · AI Platform');
  });

  it('shows the site name alone when the page has no name', () => {
    expect(formatDocumentTitle(null, 'AI Platform')).toBe('AI Platform');
    expect(formatDocumentTitle('', 'AI Platform')).toBe('AI Platform');
  });
});
