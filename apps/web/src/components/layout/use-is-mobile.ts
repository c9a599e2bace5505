import { useMediaQuery } from '../common/use-media-query';

/** The mobile layout applies below 768 px. */
const MOBILE_QUERY = '(max-width: 767.98px)';

/** Read synchronously, so the first paint already has the right layout. */
export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY);
}
