import { describe, expect, it } from 'vitest';
import { isHttpUrl } from './http-url';

describe('isHttpUrl', () => {
  it('accepts http and https addresses', () => {
    expect(isHttpUrl('https://llm.example.com/v1')).toBe(true);
    expect(isHttpUrl('http://127.0.0.1:4010/v1')).toBe(true);
    expect(isHttpUrl(' https://x.example ')).toBe(true);
  });

  it('refuses other schemes, relative paths, spaces and garbage', () => {
    expect(isHttpUrl('javascript:alert(1)')).toBe(false);
    expect(isHttpUrl('ftp://x.example')).toBe(false);
    expect(isHttpUrl('/module/x')).toBe(false);
    expect(isHttpUrl('https://x .example')).toBe(false);
    expect(isHttpUrl('https://')).toBe(false);
    expect(isHttpUrl('')).toBe(false);
  });
});
