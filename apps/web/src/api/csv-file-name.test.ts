import { describe, expect, it } from 'vitest';
import { csvFileName } from './csv-file-name';

describe('csvFileName', () => {
  it('names the file by prefix and local minute', () => {
    expect(csvFileName('users', new Date(2025, 0, 31, 9, 5))).toBe('users-20250131-0905.csv');
    expect(csvFileName('audit', new Date(2024, 11, 1, 23, 59))).toBe('audit-20241201-2359.csv');
  });
});
