import type { AdminApiKey, AdminApiKeyListQuery } from '@aiplatform/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Empty, Flex, Input, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call, callPage } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { apiKeyColumns } from '../../../components/api-keys/api-key-columns';
import { AccessGuard } from '../../../components/common/AccessGuard';
import { useDocumentTitle } from '../../../components/common/use-document-title';
import { i18n } from '../../../i18n';
import { registerAdminResources } from '../../../i18n/admin-resources';
import { AdminPageHeader } from '../shared/AdminPageHeader';
import { AdminTheme } from '../shared/AdminTheme';
import { DangerButton } from '../shared/DangerButton';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import { UserPicker } from '../shared/UserPicker';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { useFocusableTableScroll } from '../shared/use-focusable-scroll';
import { useOverlaySize } from '../shared/use-overlay-size';

// Admin translations arrive with the admin chunks, before any admin screen renders.
registerAdminResources(i18n);

/** `?user_id=` narrows the list to one person's keys (a link from elsewhere may carry it). */
function initialQuery(params: URLSearchParams): AdminApiKeyListQuery {
  const userId = Number(params.get('user_id'));
  return { page: 1, limit: 20, ...(Number.isInteger(userId) && userId > 0 ? { user_id: userId } : {}) };
}

function ApiKeysWorkspace() {
  const { t, i18n: i18next } = useTranslation();
  const { isMobile } = useOverlaySize();
  const scrollRef = useFocusableTableScroll(t('admin:apiKeys.title'));
  const [params] = useSearchParams();
  const [query, setQuery] = useState<AdminApiKeyListQuery>(() => initialQuery(params));
  const list = useQuery({
    queryKey: adminKeys.apiKeyList(query),
    queryFn: () => callPage('listAdminApiKeys', { query }),
    placeholderData: keepPreviousData,
  });
  const revoke = useAdminMutation({
    mutationFn: (key: AdminApiKey) => call('revokeAdminApiKey', { params: { id: key.id } }),
    invalidates: [adminKeys.apiKeys],
    successText: (_r, key) => t('admin:apiKeys.revokedDone', { name: key.name, user: key.username }),
    failureKey: 'admin:apiKeys.revokeFailed',
  });

  const columns: ColumnsType<AdminApiKey> = [
    {
      key: 'owner',
      title: t('admin:apiKeys.owner'),
      render: (_: unknown, key) => (
        <span data-testid="api-key-owner">
          {key.username}
          <br />
          <Typography.Text type="secondary">{key.email}</Typography.Text>
        </span>
      ),
    },
    ...apiKeyColumns<AdminApiKey>(t, i18next.language, new Date()),
    {
      key: 'actions',
      title: t('admin:apiKeys.actions'),
      render: (_: unknown, key) =>
        key.revoked_at ? null : (
          <DangerButton
            title={t('admin:apiKeys.revokeConfirm', { name: key.name, user: key.username })}
            hint={t('admin:apiKeys.revokeHint')}
            label={t('admin:apiKeys.revoke')}
            onConfirm={() => revoke.mutateAsync(key)}
            testId="admin-api-key-revoke"
          />
        ),
    },
  ];

  return (
    <>
      <AdminPageHeader title={t('admin:apiKeys.title')} />
      <Card ref={scrollRef} styles={{ body: { padding: isMobile ? 12 : undefined } }}>
        <Typography.Paragraph type="secondary">{t('admin:apiKeys.intro')}</Typography.Paragraph>
        <Flex wrap gap={8} style={{ marginBottom: 12 }}>
          <Input.Search
            allowClear
            placeholder={t('admin:apiKeys.searchPlaceholder')}
            aria-label={t('admin:apiKeys.searchPlaceholder')}
            onSearch={(search) => setQuery((q) => ({ ...q, page: 1, search: search.trim() || undefined }))}
            style={{ width: 280, maxWidth: '100%' }}
            data-testid="api-key-search"
          />
          <div style={{ width: 260, maxWidth: '100%' }}>
            <UserPicker
              value={query.user_id ?? null}
              onChange={(user_id) => setQuery((q) => ({ ...q, page: 1, user_id }))}
              placeholder={t('admin:apiKeys.filterUser')}
              allowClear
              testId="api-key-filter-user"
            />
          </div>
        </Flex>
        {list.isError && !list.data ? (
          <QueryErrorResult error={list.error} onRetry={() => void list.refetch()} testId="api-keys-error" />
        ) : (
          <Table<AdminApiKey>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={list.data?.items ?? []}
            loading={list.isFetching}
            scroll={{ x: 1100 }}
            locale={{ emptyText: <Empty description={t('admin:apiKeys.empty')} /> }}
            pagination={{
              current: query.page,
              pageSize: query.limit,
              total: list.data?.pagination.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: [20, 50, 100],
              showTotal: (total) => t('admin:table.total', { count: total }),
              size: isMobile ? 'small' : 'medium',
              onChange: (page, limit) => setQuery((current) => ({ ...current, page, limit })),
            }}
            data-testid="api-keys-table"
          />
        )}
      </Card>
    </>
  );
}

/** Every personal API key the administrator's reach covers, with its owner; revoking one. */
export default function AdminApiKeysPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('layout:menu.apiKeys'));
  return (
    <AccessGuard page="apiKeys">
      <AdminTheme>
        <ApiKeysWorkspace />
      </AdminTheme>
    </AccessGuard>
  );
}
