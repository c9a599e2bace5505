import type { KnowledgeDocument } from '@aiplatform/contracts';
import { DeleteOutlined, FileTextOutlined, LoadingOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Flex, Table, type TableColumnsType, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filesApi } from '../../api/documents';
import { toast } from '../../api/notify';
import { formatDateTime, formatNumber } from '../../components/common/format';
import { errorText, reportError } from '../../components/common/report-error';
import { useOpenText } from '../../components/documents/TextViewerProvider';
import { DOCUMENT_EXTENSIONS, chipState } from '../../components/documents/document-attachments';
import { DangerButton } from '../admin/shared/DangerButton';
import { useKnowledgeChanges, useKnowledgeDocuments } from './use-knowledge';

/** A document's state as a tag: being read, ready, or failed with the reason. */
function StatusTag({ doc }: { doc: KnowledgeDocument }) {
  const { t } = useTranslation();
  const state = chipState(doc);
  if (state.phase === 'processing')
    return (
      <Tag icon={<LoadingOutlined />} color="processing" data-testid="kb-doc-status" data-status="processing">
        {t('chat:documents.processing')}
      </Tag>
    );
  if (state.phase === 'failed')
    return (
      <Tag color="error" data-testid="kb-doc-status" data-status="failed">
        {t(state.errorKey)}
      </Tag>
    );
  return (
    <Tag color="success" data-testid="kb-doc-status" data-status="ready">
      {t('chat:documents.ready')}
    </Tag>
  );
}

/** Uploads each picked document and adds it to the knowledge base; failures are told by name. */
function useUploadInto(id: number) {
  const { t } = useTranslation();
  const { addDocument } = useKnowledgeChanges();
  const [uploading, setUploading] = useState(false);
  const upload = async (files: File[]) => {
    setUploading(true);
    try {
      for (const file of files) {
        try {
          const info = await filesApi.upload(file);
          await addDocument.mutateAsync({ id, fileId: info.id });
        } catch (error) {
          toast('error', `${file.name}: ${errorText(error, 'chat:documents.uploadFailed')}`);
        }
      }
    } finally {
      setUploading(false);
    }
  };
  return { upload: (files: File[]) => void upload(files), uploading, uploadLabel: t('chat:knowledge.upload') };
}

/** The documents of a knowledge base with their state; ready ones open their text. */
export function KnowledgeDocuments({ id, editable }: { id: number; editable: boolean }) {
  const { t, i18n } = useTranslation();
  const docs = useKnowledgeDocuments(id);
  const openText = useOpenText();
  const { removeDocument } = useKnowledgeChanges();
  const input = useRef<HTMLInputElement>(null);
  const { upload, uploading, uploadLabel } = useUploadInto(id);

  const columns: TableColumnsType<KnowledgeDocument> = [
    {
      title: t('chat:knowledge.documentName'),
      dataIndex: 'name',
      render: (_, doc) => (
        <>
          {doc.status === 'ready' ? (
            <Button
              type="link"
              icon={<FileTextOutlined />}
              onClick={() => openText({ fileId: doc.id, name: doc.name })}
              className="knowledge-doc-name"
              data-testid="kb-doc-open"
            >
              {doc.name}
            </Button>
          ) : (
            <span className="knowledge-doc-name">{doc.name}</span>
          )}
          {/* On phones the state goes under the name: there is no room for its own column. */}
          <div className="knowledge-doc-inline-status">
            <StatusTag doc={doc} />
          </div>
        </>
      ),
    },
    {
      title: t('chat:knowledge.status'),
      key: 'status',
      className: 'knowledge-status',
      responsive: ['sm'],
      render: (_, doc) => <StatusTag doc={doc} />,
    },
    {
      title: t('chat:knowledge.size'),
      key: 'size',
      responsive: ['sm'],
      render: (_, doc) =>
        doc.status === 'ready'
          ? doc.pages !== null
            ? t('chat:documents.readyPages', { pages: doc.pages, tokens: formatNumber(doc.tokens ?? 0, i18n.language) })
            : t('chat:documents.readyTokens', { tokens: formatNumber(doc.tokens ?? 0, i18n.language) })
          : '—',
    },
    {
      title: t('chat:knowledge.added'),
      dataIndex: 'added_at',
      responsive: ['md'],
      render: (value: string) => formatDateTime(value, i18n.language),
    },
    ...(editable
      ? [
          {
            title: t('chat:knowledge.actions'),
            key: 'actions',
            render: (_: unknown, doc: KnowledgeDocument) => (
              <DangerButton
                title={t('chat:knowledge.removeDocTitle', { name: doc.name })}
                hint={t('chat:knowledge.removeDocHint')}
                label={t('chat:knowledge.removeDoc')}
                icon={<DeleteOutlined />}
                onConfirm={() =>
                  removeDocument
                    .mutateAsync({ id, fileId: doc.id })
                    .catch((error: unknown) => reportError(error, 'chat:knowledge.removeDocFailed'))
                }
                testId="kb-doc-remove"
              />
            ),
          },
        ]
      : []),
  ];

  return (
    <Flex vertical gap={12}>
      {editable && (
        <div>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            accept={DOCUMENT_EXTENSIONS.join(',')}
            onChange={(event) => {
              const files = Array.from(event.target.files ?? []);
              event.target.value = '';
              if (files.length > 0) upload(files);
            }}
            data-testid="kb-upload-input"
          />
          <Button
            icon={uploading ? <LoadingOutlined /> : <UploadOutlined />}
            disabled={uploading}
            onClick={() => input.current?.click()}
            data-testid="kb-upload"
          >
            {uploadLabel}
          </Button>
        </div>
      )}
      <Table<KnowledgeDocument>
        rowKey="id"
        size="middle"
        loading={docs.isPending}
        columns={columns}
        dataSource={docs.data ?? []}
        pagination={false}
        locale={{ emptyText: t('chat:knowledge.noDocuments') }}
        onRow={(doc) => ({ 'data-testid': 'kb-doc', 'data-status': doc.status }) as object}
      />
    </Flex>
  );
}
