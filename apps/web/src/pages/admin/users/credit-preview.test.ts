import { describe, expect, it } from 'vitest';
import { previewCredits } from './credit-preview';

describe('previewCredits', () => {
  it('adds, deducts and sets', () => {
    expect(previewCredits(1000, 'add', 100)).toEqual({ after: 1100, exceedsBalance: false });
    expect(previewCredits(1000, 'deduct', 100)).toEqual({ after: 900, exceedsBalance: false });
    expect(previewCredits(1000, 'set', 50)).toEqual({ after: 50, exceedsBalance: false });
  });

  it('never shows a negative balance and flags a deduction beyond it', () => {
    expect(previewCredits(100, 'deduct', 150)).toEqual({ after: 0, exceedsBalance: true });
    expect(previewCredits(100, 'deduct', 100)).toEqual({ after: 0, exceedsBalance: false });
  });

  it('treats an empty amount as zero', () => {
    expect(previewCredits(100, 'add', null)).toEqual({ after: 100, exceedsBalance: false });
  });
});
