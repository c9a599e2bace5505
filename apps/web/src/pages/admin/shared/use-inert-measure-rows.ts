import { useEffect, useRef } from 'react';

/**
 * A scrolling antd table renders a hidden, zero-height copy of its header (the measure row)
 * to size its columns; with row selection that copy holds a second "select all" checkbox,
 * which Tab would reach though nobody can see it (and axe reports aria-hidden-focus).
 * Put the returned ref on an element around the table: its measure rows become `inert`,
 * now and whenever the table renders them again.
 */
export function useInertMeasureRows<T extends HTMLElement = HTMLDivElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const markInert = () => {
      for (const row of root.querySelectorAll<HTMLElement>('.ant-table-measure-row:not([inert])')) row.inert = true;
    };
    markInert();
    const observer = new MutationObserver(markInert);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return ref;
}
