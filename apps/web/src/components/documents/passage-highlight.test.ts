import { describe, expect, it } from 'vitest';
import { findPassage, targetPage } from './passage-highlight';

const PAGE = 'Section 12.\n\nThe  tenant shall pay\nthe rent on the first day of each month.\nLate fees apply.';

describe('findPassage', () => {
  it('finds a snippet whose whitespace was folded, in the original text', () => {
    const range = findPassage(PAGE, 'The tenant shall pay the rent on the first day');
    expect(range).not.toBeNull();
    expect(PAGE.slice(range?.start, range?.end)).toBe('The  tenant shall pay\nthe rent on the first day');
  });

  it('ignores case and a trailing ellipsis of a cut snippet', () => {
    const range = findPassage(PAGE, 'late fees apply…');
    expect(PAGE.slice(range?.start, range?.end)).toBe('Late fees apply');
  });

  it('falls back to the opening words when the snippet runs past the page', () => {
    const snippet = 'the rent on the first day of each month. Late fees apply. And more text on the next page';
    const range = findPassage(PAGE, snippet);
    expect(range).not.toBeNull();
    expect(PAGE.slice(range?.start ?? 0).startsWith('the rent on the first day')).toBe(true);
  });

  it('finds Chinese text and says null when the passage is not there', () => {
    expect(findPassage('第二十七页：违约金为合同总额的百分之五。', '违约金为合同总额')).toEqual({ start: 6, end: 14 });
    expect(findPassage(PAGE, 'not in this page')).toBeNull();
    expect(findPassage(PAGE, '   ')).toBeNull();
  });
});

describe('targetPage', () => {
  const pages = [
    { page: 1, text: 'Introduction' },
    { page: 27, text: 'The penalty is five percent.' },
  ];

  it('goes to the cited page, else to the page holding the snippet', () => {
    expect(targetPage(pages, 27, 'penalty')).toBe(27);
    expect(targetPage(pages, null, 'The penalty is')).toBe(27);
    expect(targetPage(pages, 99, 'Introduction')).toBe(1);
    expect(targetPage(pages, null, undefined)).toBeNull();
  });
});
