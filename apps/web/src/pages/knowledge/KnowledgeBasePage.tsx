import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { AccessGuard } from '../../components/common/AccessGuard';
import { useDocumentTitle } from '../../components/common/use-document-title';
import { TextViewerProvider } from '../../components/documents/TextViewerProvider';
import { KnowledgeActions } from './KnowledgeActions';
import { KnowledgeDocuments } from './KnowledgeDocuments';
import { ScopeTag } from './ScopeTag';
import { useKnowledgeBase } from './use-knowledge';
import './knowledge.css';

function KnowledgeBaseView({ id }: { id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const kb = useKnowledgeBase(id);
  useDocumentTitle(kb.data?.name ?? t('chat:knowledge.title'));

  if (kb.isPending) return <Spin />;
  if (kb.isError || !kb.data) {
    const missing = isApiError(kb.error) && kb.error.status === 404;
    return (
      <Result
        status={missing ? '404' : 'error'}
        title={t(missing ? 'chat:knowledge.notFound' : 'chat:knowledge.loadFailed')}
        extra={<Button onClick={() => void navigate('/knowledge')}>{t('chat:knowledge.back')}</Button>}
      />
    );
  }
  const base = kb.data;
  return (
    <div className="knowledge-page" data-testid="kb-detail">
      <Button
        type="link"
        icon={<ArrowLeftOutlined />}
        onClick={() => void navigate('/knowledge')}
        className="knowledge-back"
      >
        {t('chat:knowledge.back')}
      </Button>
      <Flex justify="space-between" align="center" wrap gap={8} className="knowledge-page-header">
        <Typography.Title level={1} className="knowledge-page-title" data-testid="kb-title">
          {base.name} <ScopeTag kb={base} />
        </Typography.Title>
        <KnowledgeActions kb={base} onDeleted={() => void navigate('/knowledge')} />
      </Flex>
      {base.description && <Typography.Paragraph type="secondary">{base.description}</Typography.Paragraph>}
      <Card title={t('chat:knowledge.documents')}>
        <KnowledgeDocuments id={base.id} editable={base.abilities.update} />
      </Card>
    </div>
  );
}

/** One knowledge base: its documents, and for those who may change it uploads, removals and deletion. */
export default function KnowledgeBasePage() {
  const { id } = useParams();
  const kbId = Number(id);
  return (
    <AccessGuard page="chat">
      <TextViewerProvider>
        {Number.isInteger(kbId) && kbId > 0 ? <KnowledgeBaseView key={kbId} id={kbId} /> : null}
      </TextViewerProvider>
    </AccessGuard>
  );
}
