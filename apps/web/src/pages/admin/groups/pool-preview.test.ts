import { describe, expect, it } from 'vitest';
import { previewPoolSize, previewPoolTransfer } from './pool-preview';

describe('previewPoolTransfer', () => {
  it('moves the amount from the pool to the member, or back', () => {
    expect(previewPoolTransfer('distribute', 250, 1000, 100)).toEqual({
      pool: { from: 1000, to: 750 },
      member: { from: 100, to: 350 },
    });
    expect(previewPoolTransfer('reclaim', 40, 750, 350)).toEqual({
      pool: { from: 750, to: 790 },
      member: { from: 350, to: 310 },
    });
  });

  it('shows the pool alone until a member is chosen, and nothing moving without an amount', () => {
    expect(previewPoolTransfer('distribute', null, 500, undefined)).toEqual({ pool: { from: 500, to: 500 } });
  });

  it('never shows a negative figure for an amount the check refuses', () => {
    expect(previewPoolTransfer('distribute', 600, 500, 0).pool.to).toBe(0);
    expect(previewPoolTransfer('reclaim', 80, 0, 50).member?.to).toBe(0);
  });
});

describe('previewPoolSize', () => {
  const group = { credits_pool: 1000, credits_pool_used: 250 };
  it('moves what is left with the size', () => {
    expect(previewPoolSize(group, 2000)).toEqual({
      total: { from: 1000, to: 2000 },
      remaining: { from: 750, to: 1750 },
    });
    expect(previewPoolSize(group, null)).toEqual({
      total: { from: 1000, to: 1000 },
      remaining: { from: 750, to: 750 },
    });
    expect(previewPoolSize(group, 100).remaining.to).toBe(0);
  });
});
