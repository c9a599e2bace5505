import { useEffect, useRef } from 'react';

/**
 * antd scrolls a wide table inside an element that cannot take focus, so a table without
 * buttons or links could not be scrolled sideways from the keyboard. Put the returned ref
 * on an element around the table: its scroll area becomes a focusable, labelled region.
 */
export function useFocusableTableScroll<T extends HTMLElement = HTMLDivElement>(label: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    for (const area of ref.current?.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body') ?? []) {
      area.tabIndex = 0;
      area.setAttribute('role', 'region');
      area.setAttribute('aria-label', label);
    }
  });
  return ref;
}
