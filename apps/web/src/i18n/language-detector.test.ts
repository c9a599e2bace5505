import { describe, expect, it } from 'vitest';
import { type LanguageSources, createLanguageDetector } from './language-detector';

function sources(over: Partial<LanguageSources> = {}) {
  const remembered: string[] = [];
  const all: LanguageSources = {
    stored: () => null,
    browser: () => [],
    page: () => null,
    remember: (language) => remembered.push(language),
    ...over,
  };
  return { detector: createLanguageDetector(all), remembered };
}

describe('createLanguageDetector', () => {
  it('prefers the stored choice over the browser and the page', () => {
    const { detector } = sources({ stored: () => 'en-US', browser: () => ['zh-CN'], page: () => 'zh-CN' });
    expect(detector.detect()).toBe('en-US');
  });

  it('takes the first shipped browser language, then the page language', () => {
    expect(sources({ browser: () => ['fr-FR', 'en-GB', 'zh-CN'] }).detector.detect()).toBe('en-US');
    expect(sources({ browser: () => ['fr-FR'], page: () => 'en' }).detector.detect()).toBe('en-US');
  });

  it('skips an unsafe or unknown stored value and falls back to zh-CN', () => {
    expect(sources({ stored: () => '<img onerror=x>', browser: () => ['en'] }).detector.detect()).toBe('en-US');
    expect(sources({ stored: () => 'de', browser: () => ['fr'] }).detector.detect()).toBe('zh-CN');
  });

  it('remembers each language change, except the key-showing pseudo language', () => {
    const { detector, remembered } = sources();
    detector.cacheUserLanguage?.('en-US');
    detector.cacheUserLanguage?.('cimode');
    expect(remembered).toEqual(['en-US']);
  });
});
