import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** The page's main region; a screen may mark a better first stop (the chat's text box) with `data-skip-target`. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * The first stop of the keyboard on every signed-in page: hidden until focused, it jumps
 * over the header and the menu, to the element marked `data-skip-target` when the screen
 * has one (the chat's text box), else to the main region.
 */
export function SkipLink() {
  const { t } = useTranslation();
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const target =
      document.querySelector<HTMLElement>('[data-skip-target]') ?? document.getElementById(MAIN_CONTENT_ID);
    if (!target) return;
    event.preventDefault();
    target.focus();
  };
  return (
    <a className="skip-link" href={`#${MAIN_CONTENT_ID}`} onClick={skip} data-testid="skip-link">
      {t('layout:skipToContent')}
    </a>
  );
}
