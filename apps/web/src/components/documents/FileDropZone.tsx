import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './documents.css';

const hasFiles = (transfer: DataTransfer | null): boolean => Boolean(transfer?.types.includes('Files'));

/**
 * Files dropped on the composer or pasted into it are attached like picked ones; pasted
 * text stays ordinary text. While files are dragged over it the area says so.
 */
export function FileDropZone({
  disabled,
  onFiles,
  children,
}: {
  disabled: boolean;
  onFiles: (files: File[]) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed: count them to know when the pointer left.
  const depth = useRef(0);

  return (
    <div
      className={`chat-drop-target${dragging ? ' is-dragging' : ''}`}
      data-drop-label={t('chat:documents.dropHere')}
      data-testid="chat-drop-zone"
      onDragEnter={(event) => {
        if (disabled || !hasFiles(event.dataTransfer)) return;
        event.preventDefault();
        depth.current += 1;
        setDragging(true);
      }}
      onDragOver={(event) => {
        if (disabled || !hasFiles(event.dataTransfer)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      }}
      onDrop={(event) => {
        depth.current = 0;
        setDragging(false);
        if (disabled || !hasFiles(event.dataTransfer)) return;
        event.preventDefault();
        const files = Array.from(event.dataTransfer.files);
        if (files.length > 0) onFiles(files);
      }}
      onPaste={(event) => {
        if (disabled) return;
        const files = Array.from(event.clipboardData.files);
        if (files.length === 0) return;
        event.preventDefault();
        onFiles(files);
      }}
    >
      {children}
    </div>
  );
}
