import { BookOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, List, Result, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AccessGuard } from '../../components/common/AccessGuard';
import { useDocumentTitle } from '../../components/common/use-document-title';
import { KnowledgeCreateModal } from './KnowledgeCreateModal';
import { KnowledgeActions } from './KnowledgeActions';
import { ScopeTag } from './ScopeTag';
import { useKnowledgeBases } from './use-knowledge';
import './knowledge.css';

function KnowledgeList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useKnowledgeBases();
  const [creating, setCreating] = useState(false);

  return (
    <div className="knowledge-page" data-testid="knowledge-page">
      <Flex justify="space-between" align="center" wrap gap={8} className="knowledge-page-header">
        <Typography.Title level={1} className="knowledge-page-title">
          <BookOutlined /> {t('chat:knowledge.title')}
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="kb-create">
          {t('chat:knowledge.create')}
        </Button>
      </Flex>
      <Typography.Paragraph type="secondary">{t('chat:knowledge.intro')}</Typography.Paragraph>
      <Card>
        {list.isPending ? (
          <Spin />
        ) : list.isError ? (
          <Result
            status="error"
            title={t('chat:knowledge.listFailed')}
            extra={<Button onClick={() => void list.refetch()}>{t('chat:knowledge.retry')}</Button>}
          />
        ) : (
          <List
            dataSource={list.data ?? []}
            locale={{ emptyText: <Empty description={t('chat:knowledge.empty')} /> }}
            renderItem={(kb) => (
              <List.Item data-testid="kb-item" data-id={kb.id} actions={[<KnowledgeActions key="actions" kb={kb} />]}>
                <List.Item.Meta
                  title={
                    <>
                      <Link to={`/knowledge/${kb.id}`} data-testid="kb-open">
                        {kb.name}
                      </Link>{' '}
                      <ScopeTag kb={kb} />
                    </>
                  }
                  description={
                    <>
                      {kb.description && <div className="knowledge-description">{kb.description}</div>}
                      <span>{t('chat:knowledge.documentCount', { n: kb.document_count })}</span>
                    </>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Card>
      <KnowledgeCreateModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(kb) => {
          setCreating(false);
          void navigate(`/knowledge/${kb.id}`);
        }}
      />
    </div>
  );
}

/** The knowledge bases the person may read: personal ones and their group's; a new one is made here. */
export default function KnowledgePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('chat:knowledge.title'));
  return (
    <AccessGuard page="chat">
      <KnowledgeList />
    </AccessGuard>
  );
}
