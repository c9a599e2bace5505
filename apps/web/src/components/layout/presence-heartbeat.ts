/** Whether the page is shown, and news when that changes (the document, or a stand-in in tests). */
export interface VisibilitySource {
  isVisible(): boolean;
  onChange(listener: () => void): () => void;
}

export const documentVisibility: VisibilitySource = {
  isVisible: () => document.visibilityState !== 'hidden',
  onChange: (listener) => {
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
};

/**
 * Calls `beat` at once and then every `intervalMs` while the page is visible. A hidden
 * tab stops beating (its user is not looking, so they drop out of "online" after the
 * presence window); coming back beats at once instead of waiting for the next period.
 * Returns the function that stops it all.
 */
export function startHeartbeat(beat: () => void, intervalMs: number, visibility: VisibilitySource): () => void {
  let timer: ReturnType<typeof setInterval> | null = null;

  const pause = () => {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
  };
  const sync = () => {
    if (!visibility.isVisible()) return pause();
    // Already beating: a repeated "visible" event must not add a second beat.
    if (timer !== null) return;
    beat();
    timer = setInterval(beat, intervalMs);
  };

  sync();
  const unsubscribe = visibility.onChange(sync);
  return () => {
    unsubscribe();
    pause();
  };
}
