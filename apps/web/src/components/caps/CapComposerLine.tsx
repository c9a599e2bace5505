import { useTranslation } from 'react-i18next';
import { capLine, tightestCap } from '../../api/cap-text';
import { useMyCaps } from '../../api/use-caps';

/**
 * The composer's compact word on caps: the one closest to being reached, e.g.
 * "Daily cap 120 / 200 · resets 00:00"; nothing when no cap applies.
 */
export function CapComposerLine() {
  const { t, i18n } = useTranslation();
  const caps = useMyCaps();
  const cap = tightestCap(caps.data?.applying ?? []);
  if (!cap) return null;
  return (
    <span className={cap.used >= cap.limit ? 'chat-cap is-short' : 'chat-cap'} data-testid="chat-cap">
      {capLine(t, cap, new Date(), i18n.language)}
    </span>
  );
}
