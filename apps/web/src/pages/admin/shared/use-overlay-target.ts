import { useCallback, useState } from 'react';

/**
 * The object a modal or drawer is about. It stays set while the overlay animates shut
 * (so the content does not blank out mid-animation) and is cleared in `afterClose`.
 */
export function useOverlayTarget<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback((value: T) => {
    setTarget(value);
    setOpen(true);
  }, []);
  const hide = useCallback(() => setOpen(false), []);
  const afterClose = useCallback(() => setTarget(null), []);
  return { target, open, show, hide, afterClose };
}
