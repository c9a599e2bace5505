import { describe, expect, it } from 'vitest';
import { poolTransferProblem } from './pool-transfer-check';

describe('poolTransferProblem', () => {
  it('refuses to distribute more than the pool has left', () => {
    expect(poolTransferProblem('distribute', 101, 100, 0)).toBe('poolShort');
    expect(poolTransferProblem('distribute', 100, 100, 0)).toBeNull();
  });

  it('refuses to reclaim more than the member holds', () => {
    expect(poolTransferProblem('reclaim', 51, 0, 50)).toBe('memberShort');
    expect(poolTransferProblem('reclaim', 50, 0, 50)).toBeNull();
    expect(poolTransferProblem('reclaim', 50, 0, undefined)).toBeNull();
  });
});
