import type { PromptScope, PromptTemplate } from '@aiplatform/contracts';
import { FileTextOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Input, List, Popconfirm, Result, Segmented, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { AccessGuard } from '../../components/common/AccessGuard';
import { reportError } from '../../components/common/report-error';
import { useDocumentTitle } from '../../components/common/use-document-title';
import { PromptScopeTag } from '../../components/prompts/PromptScopeTag';
import { usePromptChanges, usePrompts } from '../../components/prompts/use-prompts';
import { useAbilities } from '../../stores/abilities';
import { PromptEditModal } from './PromptEditModal';
import { PromptVersionsDrawer } from './PromptVersionsDrawer';
import '../../components/prompts/prompts.css';

type Filter = PromptScope | 'all';

function PromptList() {
  const { t } = useTranslation();
  const { actions } = useAbilities();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const [editing, setEditing] = useState<PromptTemplate | null | 'new'>(null);
  const [history, setHistory] = useState<PromptTemplate | null>(null);
  const list = usePrompts({
    ...(search.trim() ? { search: search.trim() } : {}),
    ...(filter !== 'all' ? { scope: filter } : {}),
  });
  const { remove } = usePromptChanges();
  // What the server will allow: a group's templates for its administrators, the system's for super administrators.
  const scopes: PromptScope[] = [
    'personal',
    ...(actions['prompt.group.manage'] !== 'none' ? (['group'] as const) : []),
    ...(actions['prompt.system.manage'] !== 'none' ? (['system'] as const) : []),
  ];

  const onDelete = async (prompt: PromptTemplate) => {
    try {
      await remove.mutateAsync(prompt.id);
      toast('success', t('chat:prompts.deleted'));
    } catch (error) {
      reportError(error, 'chat:prompts.deleteFailed');
    }
  };

  const actionsOf = (prompt: PromptTemplate) => [
    <Button key="versions" size="small" onClick={() => setHistory(prompt)} data-testid="prompt-versions">
      {t('chat:prompts.versions')}
    </Button>,
    ...(prompt.abilities.update
      ? [
          <Button key="edit" size="small" onClick={() => setEditing(prompt)} data-testid="prompt-edit">
            {t('chat:prompts.edit')}
          </Button>,
        ]
      : []),
    ...(prompt.abilities.delete
      ? [
          <Popconfirm
            key="delete"
            title={t('chat:prompts.deleteConfirm')}
            okText={t('chat:prompts.delete')}
            cancelText={t('common:cancel')}
            onConfirm={() => void onDelete(prompt)}
          >
            <Button size="small" danger data-testid="prompt-delete">
              {t('chat:prompts.delete')}
            </Button>
          </Popconfirm>,
        ]
      : []),
  ];

  return (
    <div className="prompts-page" data-testid="prompts-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={1} className="prompts-page-title">
          <FileTextOutlined /> {t('chat:prompts.title')}
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="prompt-create">
          {t('chat:prompts.create')}
        </Button>
      </Flex>
      <Typography.Paragraph type="secondary">
        {t('chat:prompts.intro', { example: `{{${t('chat:prompts.exampleName')}}}` })}
      </Typography.Paragraph>
      <Flex wrap gap={8} className="prompts-filters">
        <Input
          allowClear
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={t('chat:prompts.searchPlaceholder')}
          aria-label={t('chat:prompts.searchPlaceholder')}
          style={{ maxWidth: 320 }}
          data-testid="prompts-search"
        />
        <Segmented<Filter>
          value={filter}
          onChange={setFilter}
          options={(['all', 'personal', 'group', 'system'] as const).map((value) => ({
            value,
            label: t(value === 'all' ? 'chat:prompts.all' : `chat:prompts.scope.${value}`),
          }))}
        />
      </Flex>
      <Card style={{ marginTop: 12 }}>
        {list.isPending ? (
          <Spin />
        ) : list.isError ? (
          <Result
            status="error"
            title={t('chat:prompts.listFailed')}
            extra={<Button onClick={() => void list.refetch()}>{t('chat:prompts.retry')}</Button>}
          />
        ) : (
          <List
            dataSource={list.data ?? []}
            locale={{ emptyText: <Empty description={t('chat:prompts.empty')} /> }}
            renderItem={(prompt) => (
              <List.Item data-testid="prompt-item" data-id={prompt.id} actions={actionsOf(prompt)}>
                <List.Item.Meta
                  title={
                    <>
                      {prompt.title} <PromptScopeTag prompt={prompt} />
                    </>
                  }
                  description={
                    <>
                      <div className="prompts-content">{prompt.content}</div>
                      {prompt.variables.length > 0 && (
                        <div>{t('chat:prompts.variables', { names: prompt.variables.join(', ') })}</div>
                      )}
                    </>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Card>
      <PromptEditModal
        open={editing !== null}
        prompt={editing === 'new' ? null : editing}
        scopes={scopes}
        onClose={() => setEditing(null)}
      />
      <PromptVersionsDrawer prompt={history} onClose={() => setHistory(null)} />
    </div>
  );
}

/** The templates the person reads: their own, their group's and the system's; those they may change are changed here. */
export default function PromptsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('chat:prompts.title'));
  return (
    <AccessGuard page="chat">
      <PromptList />
    </AccessGuard>
  );
}
