import type { MessageFile } from '@aiplatform/contracts';
import { FileTextOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { documentsOf } from './document-attachments';
import { useOpenText } from './TextViewerProvider';
import './documents.css';

/** The documents a question carried, by name; each opens its extracted text. */
export function MessageDocuments({ files }: { files: MessageFile[] }) {
  const { t } = useTranslation();
  const openText = useOpenText();
  const documents = documentsOf(files);
  if (documents.length === 0) return null;
  return (
    <div className="message-documents" data-testid="message-documents">
      {documents.map((file) => (
        <Button
          key={file.id}
          size="small"
          icon={<FileTextOutlined />}
          onClick={() => openText({ fileId: file.id, name: file.original_name })}
          aria-label={t('chat:documents.previewNamed', { name: file.original_name })}
          data-testid="message-document"
        >
          {file.original_name}
        </Button>
      ))}
    </div>
  );
}
