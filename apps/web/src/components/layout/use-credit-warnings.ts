import { useMemo } from 'react';
import { useUserCreditsStats } from '../../api/use-user-stats';
import { type CreditWarning, creditWarnings } from '../common/credit-warnings';

/**
 * What the header bell says about the user's credits. It reads the same query as the
 * dashboard's credits centre, so the two never disagree and are fetched once.
 */
export function useCreditWarnings(): CreditWarning[] {
  const { data } = useUserCreditsStats();
  return useMemo(() => creditWarnings(data), [data]);
}
