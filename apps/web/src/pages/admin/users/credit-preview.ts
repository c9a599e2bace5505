import type { CreditOperation } from '@aiplatform/contracts';

export interface CreditPreview {
  /** The balance the operation would leave, never below zero. */
  after: number;
  /** A deduction larger than the balance: the server would refuse it. */
  exceedsBalance: boolean;
}

/** What an add, deduct or set would do to a balance, shown before it is sent. */
export function previewCredits(
  balance: number,
  operation: CreditOperation,
  amount: number | null | undefined,
): CreditPreview {
  const value = amount ?? 0;
  switch (operation) {
    case 'add':
      return { after: balance + value, exceedsBalance: false };
    case 'deduct':
      return { after: Math.max(0, balance - value), exceedsBalance: value > balance };
    case 'set':
      return { after: Math.max(0, value), exceedsBalance: false };
  }
}
