import { describe, expect, it } from 'vitest';
import { pickDetectedLanguage, toSupportedLanguage } from './language';

describe('toSupportedLanguage', () => {
  it.each([
    ['en', 'en-US'],
    ['en-GB', 'en-US'],
    ['EN-us', 'en-US'],
    ['zh', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
  ])('maps %s to %s', (input, expected) => {
    expect(toSupportedLanguage(input)).toBe(expected);
  });

  it.each([
    '<script>alert(1)</script>',
    'en"><img src=x onerror=alert(1)>',
    "zh-CN';alert(1)//",
    'en-US-extra',
    'javascript:alert(1)',
    'e',
    'english',
    'zh_CN',
    '',
    ' en',
  ])('discards the unsafe value %j', (input) => {
    expect(toSupportedLanguage(input)).toBeUndefined();
  });

  it('ignores languages that are not shipped and non-strings', () => {
    expect(toSupportedLanguage('fr')).toBeUndefined();
    expect(toSupportedLanguage('de-DE')).toBeUndefined();
    expect(toSupportedLanguage(null)).toBeUndefined();
    expect(toSupportedLanguage(42)).toBeUndefined();
  });
});

describe('pickDetectedLanguage', () => {
  it('takes the first safe supported candidate in detection order', () => {
    expect(pickDetectedLanguage(['<svg onload=x>', 'fr-FR', 'en-GB', 'zh-CN'])).toBe('en-US');
  });

  it('falls back to zh-CN', () => {
    expect(pickDetectedLanguage([])).toBe('zh-CN');
    expect(pickDetectedLanguage(['"><script>', 'fr'])).toBe('zh-CN');
  });
});
