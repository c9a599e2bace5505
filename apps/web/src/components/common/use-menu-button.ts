import { useCallback, useRef, useState } from 'react';

/**
 * The open state of a button that opens an antd Dropdown menu, with the focus going back
 * to the button when the menu closes (a choice, Escape, Tab): antd leaves it on the hidden
 * menu, where the next key press is lost. When the user has moved on to something else
 * (clicked into the text box, a dialog took the focus) the focus is left there.
 */
export function useMenuButton() {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);

  const returnFocus = useCallback(() => {
    // After the menu has handled the key and started to hide.
    window.setTimeout(() => {
      const active = document.activeElement;
      if (!active || active === document.body || active.closest('.ant-dropdown')) trigger.current?.focus();
    }, 0);
  }, []);

  const onOpenChange = useCallback(
    (next: boolean) => {
      setOpen(next);
      if (!next) returnFocus();
    },
    [returnFocus],
  );

  /**
   * Closes after a choice. Not focusing the button at once: a choice made with Enter would
   * then land its key press on the button and open the menu again.
   */
  const close = useCallback(() => onOpenChange(false), [onOpenChange]);

  return { open, trigger, onOpenChange, close };
}
