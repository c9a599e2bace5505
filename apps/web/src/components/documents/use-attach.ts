import type { MessageFile } from '@aiplatform/contracts';
import { useState } from 'react';
import { uploadAttachments } from './attach-upload';

/**
 * Attaching picked, dropped or pasted files: uploads them and hands over what was
 * attached; `uploading` while any upload is under way.
 */
export function useAttach(
  attached: readonly MessageFile[],
  imagesAllowed: boolean,
  onAttached: (files: MessageFile[]) => void,
) {
  const [pending, setPending] = useState(0);
  const attach = async (files: File[]) => {
    setPending((n) => n + 1);
    try {
      const added = await uploadAttachments(files, attached, imagesAllowed);
      if (added.length > 0) onAttached(added);
    } finally {
      setPending((n) => n - 1);
    }
  };
  return { attach: (files: File[]) => void attach(files), uploading: pending > 0 };
}
