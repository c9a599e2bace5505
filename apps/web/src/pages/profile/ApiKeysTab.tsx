import type { ApiKey, CreatedApiKey } from '@aiplatform/contracts';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Flex, Popconfirm, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/call';
import { toast } from '../../api/notify';
import { queryKeys } from '../../api/query-keys';
import { v1BaseUrl } from '../../components/api-keys/api-key-form';
import { apiKeyColumns } from '../../components/api-keys/api-key-columns';
import { reportError } from '../../components/common/report-error';
import { useFocusableTableScroll } from '../admin/shared/use-focusable-scroll';
import { ApiKeySecretModal } from './ApiKeySecretModal';
import { CreateApiKeyModal } from './CreateApiKeyModal';

/** My personal API keys for the OpenAI-compatible `/v1`: where to send requests, the keys, a new one. */
export function ApiKeysTab() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const query = useQuery({ queryKey: queryKeys.apiKeys, queryFn: () => call('listApiKeys') });
  const baseUrl = v1BaseUrl(window.location.origin);
  // The wide table scrolls sideways on a phone: from the keyboard too.
  const scrollRef = useFocusableTableScroll(t('profile:tabs.apiKeys'));

  const revoke = async (key: ApiKey) => {
    try {
      await call('revokeApiKey', { params: { id: key.id } });
      toast('success', t('profile:apiKeys.revokedDone', { name: key.name }));
    } catch (error) {
      reportError(error, 'profile:apiKeys.revokeFailed');
    } finally {
      await client.invalidateQueries({ queryKey: queryKeys.apiKeys });
    }
  };

  const columns: ColumnsType<ApiKey> = [
    ...apiKeyColumns<ApiKey>(t, i18n.language, new Date()),
    {
      key: 'actions',
      title: <span className="visually-hidden">{t('profile:apiKeys.actions')}</span>,
      render: (_: unknown, key: ApiKey) =>
        key.revoked_at ? null : (
          <Popconfirm
            title={t('profile:apiKeys.revokeConfirm', { name: key.name })}
            description={t('profile:apiKeys.revokeHint')}
            okText={t('profile:apiKeys.revoke')}
            okButtonProps={{ danger: true, 'data-testid': 'api-key-revoke-confirm' }}
            cancelText={t('common:cancel')}
            onConfirm={() => revoke(key)}
          >
            <Button size="small" danger data-testid="api-key-revoke">
              {t('profile:apiKeys.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Flex vertical gap={12} ref={scrollRef} data-testid="api-keys-tab">
      <Typography.Paragraph style={{ margin: 0 }}>
        {t('profile:apiKeys.intro')}{' '}
        <Typography.Text code copyable data-testid="api-keys-base-url">
          {baseUrl}
        </Typography.Text>
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('profile:apiKeys.usage')}
      </Typography.Paragraph>
      <pre className="api-keys-example" data-testid="api-keys-example">
        {`curl ${baseUrl}/chat/completions \\\n  -H "Authorization: Bearer sk-…" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model":"…","messages":[{"role":"user","content":"Hello"}]}'`}
      </pre>
      <Flex justify="end">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="api-key-create">
          {t('profile:apiKeys.create')}
        </Button>
      </Flex>
      {query.isError && !query.data ? (
        <Alert
          type="error"
          showIcon
          title={t('profile:apiKeys.loadFailed')}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {t('common:retry')}
            </Button>
          }
        />
      ) : (
        <Table<ApiKey>
          rowKey="id"
          size="small"
          scroll={{ x: 900 }}
          columns={columns}
          dataSource={query.data ?? []}
          loading={query.isFetching}
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('profile:apiKeys.empty')} />,
          }}
          pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
          data-testid="api-keys-table"
        />
      )}
      <CreateApiKeyModal open={creating} onClose={() => setCreating(false)} onCreated={setCreated} />
      <ApiKeySecretModal created={created} onClose={() => setCreated(null)} />
    </Flex>
  );
}
