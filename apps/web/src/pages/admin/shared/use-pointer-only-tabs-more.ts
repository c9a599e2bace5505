import { useEffect, useRef } from 'react';

/**
 * When antd's tabs do not fit, a "more" button opening a list of the hidden tabs appears
 * inside the tab list, where assistive technology expects tabs only (axe:
 * aria-required-children). Every tab is still in the list, and the arrow keys reach and
 * scroll to each of them, so the button is a pointer convenience: put the returned ref on
 * an element around the tabs and the button leaves the accessibility tree and Tab order.
 */
export function usePointerOnlyTabsMore<T extends HTMLElement = HTMLDivElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const hide = () => {
      for (const button of root.querySelectorAll<HTMLElement>('.ant-tabs-nav-more:not([aria-hidden])')) {
        button.setAttribute('aria-hidden', 'true');
        button.tabIndex = -1;
      }
    };
    hide();
    const observer = new MutationObserver(hide);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return ref;
}
