import { describe, expect, it } from 'vitest';
import { LETTER_COLOURS, moduleLetter, moduleLetterColour } from './module-letter';

describe('module letter icons', () => {
  it('take the first whole character of the name, upper-cased', () => {
    expect(moduleLetter('  wiki')).toBe('W');
    expect(moduleLetter('知识库')).toBe('知');
    expect(moduleLetter('𝒳 tools')).toBe('𝒳');
    expect(moduleLetter('')).toBe('?');
  });

  it('keep one colour per module and spread modules over the palette', () => {
    expect(moduleLetterColour('wiki')).toBe(moduleLetterColour('wiki'));
    const colours = new Set(['wiki', 'crm', 'hr', 'jira', 'mail', 'docs', 'erp', 'bi'].map(moduleLetterColour));
    expect(colours.size).toBeGreaterThan(3);
    for (const colour of colours) expect(LETTER_COLOURS).toContain(colour);
  });
});
