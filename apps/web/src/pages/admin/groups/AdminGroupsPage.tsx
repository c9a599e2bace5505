import type { Group } from '@aiplatform/contracts';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callPage } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { AccessGuard } from '../../../components/common/AccessGuard';
import { useDocumentTitle } from '../../../components/common/use-document-title';
import { i18n } from '../../../i18n';
import { registerAdminResources } from '../../../i18n/admin-resources';
import { AdminPageHeader } from '../shared/AdminPageHeader';
import { AdminTheme } from '../shared/AdminTheme';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import { useAdminAccess } from '../shared/use-admin-access';
import { useOverlaySize } from '../shared/use-overlay-size';
import { useOverlayTarget } from '../shared/use-overlay-target';
import { GroupDetailDrawer } from './GroupDetailDrawer';
import { GroupFormModal } from './GroupFormModal';
import { GroupRowActions } from './GroupRowActions';
import { PoolTransferModal, type TransferTarget } from './PoolTransferModal';
import { groupColumns } from './group-columns';

// Admin translations arrive with the admin chunks, before any admin screen renders.
registerAdminResources(i18n);

const PAGE_SIZE = 20;

function GroupsWorkspace() {
  const { t, i18n: i18next } = useTranslation();
  const access = useAdminAccess();
  const { isMobile } = useOverlaySize();
  // Creating a group concerns no group yet: the session's reach of the action says. What may be
  // done to a listed group, its own abilities say.
  const canCreate = access.canEverywhere('group.manage');
  const [page, setPage] = useState(1);
  const form = useOverlayTarget<Group | null>();
  const detail = useOverlayTarget<number>();
  const transfer = useOverlayTarget<TransferTarget>();
  const query = { page, limit: PAGE_SIZE };
  const list = useQuery({
    queryKey: adminKeys.groupList(query),
    queryFn: () => callPage('listGroups', { query }),
    placeholderData: keepPreviousData,
  });

  const columns = groupColumns(t, i18next.language, isMobile, (group) => (
    <GroupRowActions
      group={group}
      onOpenDetail={(g) => detail.show(g.id)}
      onEdit={form.show}
      onTransfer={(g) => transfer.show({ group: g })}
    />
  ));

  return (
    <>
      <AdminPageHeader
        title={t('admin:groups.title')}
        actions={
          canCreate && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => form.show(null)}
              data-testid="group-create-button"
            >
              {t('admin:groups.add')}
            </Button>
          )
        }
      />
      <Card styles={{ body: { padding: isMobile ? 12 : undefined } }}>
        {list.isError && !list.data ? (
          <QueryErrorResult error={list.error} onRetry={() => void list.refetch()} testId="groups-error" />
        ) : (
          <Table<Group>
            rowKey="id"
            columns={columns}
            dataSource={list.data?.items ?? []}
            loading={list.isFetching}
            scroll={{ x: 1300 }}
            locale={{ emptyText: <Empty description={t('admin:groups.empty')} data-testid="groups-empty" /> }}
            pagination={{
              current: page,
              pageSize: PAGE_SIZE,
              total: list.data?.pagination.total ?? 0,
              showSizeChanger: false,
              hideOnSinglePage: true,
              showTotal: (total) => t('admin:table.total', { count: total }),
              onChange: setPage,
            }}
            data-testid="groups-table"
          />
        )}
      </Card>
      <GroupFormModal group={form.target} open={form.open} onClose={form.hide} afterClose={form.afterClose} />
      <GroupDetailDrawer
        groupId={detail.target}
        open={detail.open}
        onClose={detail.hide}
        afterClose={detail.afterClose}
        onTransfer={(group, member) => transfer.show({ group, ...(member ? { member } : {}) })}
      />
      <PoolTransferModal
        target={transfer.target}
        open={transfer.open}
        onClose={transfer.hide}
        afterClose={transfer.afterClose}
      />
    </>
  );
}

/** Groups and their credit pools: managers see every group, a group administrator only their own. */
export default function AdminGroupsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('layout:menu.groups'));
  return (
    <AccessGuard page="groups">
      <AdminTheme>
        <GroupsWorkspace />
      </AdminTheme>
    </AccessGuard>
  );
}
