import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';

/** The copied indicator shows for 2 s. */
export const COPIED_INDICATOR_MS = 2000;

/** The selection-based copy that also works where the Clipboard API is missing (plain HTTP). */
function copyBySelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

export async function copyToClipboard(text: string): Promise<boolean> {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Permission refused: the selection-based copy may still work.
    }
  }
  return copyBySelection(text);
}

/** Copies text with the product's toasts and a `copied` flag that stays on for 2 s. */
export function useCopyText(kind: 'content' | 'code') {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = useCallback(
    async (text: string) => {
      if (await copyToClipboard(text)) {
        toast('success', t(kind === 'code' ? 'chat:copy.code' : 'chat:copy.content'));
        setCopied(true);
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
      } else {
        toast('error', t('chat:copy.failed'));
      }
    },
    [kind, t],
  );
  return { copied, copy };
}
