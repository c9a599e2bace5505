import { describe, expect, it } from 'vitest';
import { emptyValues, filledText, opensPicker } from './prompt-fill';

describe('prompt filling', () => {
  it('replaces every occurrence of each variable, spaces inside the braces included', () => {
    const content = 'Dear {{name}}, about {{ 项目 }}: {{name}} again. Keep {{a-b}} and {{other}}.';
    expect(filledText(content, ['name', '项目'], { name: 'Ana', 项目: '发布' })).toBe(
      'Dear Ana, about 发布: Ana again. Keep {{a-b}} and {{other}}.',
    );
  });

  it('fills a value left out with nothing, and takes values literally', () => {
    expect(filledText('A {{x}} B {{y}}', ['x', 'y'], { x: '$& $1' })).toBe('A $& $1 B ');
  });

  it('starts the form empty, one field per variable', () => {
    expect(emptyValues(['a', '城市'])).toEqual({ a: '', 城市: '' });
  });

  it('opens the picker only for a slash typed into an empty box', () => {
    expect(opensPicker('/', '')).toBe(true);
    expect(opensPicker('/', 'a')).toBe(false);
    expect(opensPicker('a', '')).toBe(false);
  });
});
