import type { AdminUser, AdminUserListQuery } from '@aiplatform/contracts';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callPage } from '../../../api/call';
import { exportUsersCsv } from '../../../api/admin-files';
import { adminKeys } from '../../../api/query-keys';
import { AccessGuard } from '../../../components/common/AccessGuard';
import { useDocumentTitle } from '../../../components/common/use-document-title';
import { i18n } from '../../../i18n';
import { registerAdminResources } from '../../../i18n/admin-resources';
import { AdminPageHeader } from '../shared/AdminPageHeader';
import { AdminTheme } from '../shared/AdminTheme';
import { ExportCsvButton } from '../shared/ExportCsvButton';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import { useAdminAccess } from '../shared/use-admin-access';
import { useGroupOptions } from '../shared/use-group-options';
import { useOverlaySize } from '../shared/use-overlay-size';
import { useOverlayTarget } from '../shared/use-overlay-target';
import { BulkActionsBar } from './BulkActionsBar';
import { CreateUserModal } from './CreateUserModal';
import { CreditModal } from './CreditModal';
import { ImportUsersModal } from './ImportUsersModal';
import { UserDetailDrawer } from './UserDetailDrawer';
import { UserFilters } from './UserFilters';
import { UsersTable } from './UsersTable';
import { INITIAL_USER_LIST_QUERY, exportFilters } from './user-list-query';

// Admin translations arrive with the admin chunks, before any admin screen renders.
registerAdminResources(i18n);

function UsersWorkspace() {
  const { t } = useTranslation();
  const access = useAdminAccess();
  const { isMobile } = useOverlaySize();
  const [query, setQuery] = useState<AdminUserListQuery>(INITIAL_USER_LIST_QUERY);
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [createOpen, setCreateOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const detail = useOverlayTarget<number>();
  const credit = useOverlayTarget<AdminUser>();
  const seesAllGroups = access.canEverywhere('user.read');
  const { options: groupOptions, groups } = useGroupOptions(access.can('group.read'));

  const list = useQuery({
    queryKey: adminKeys.userList(query),
    queryFn: () => callPage('listUsers', { query }),
    placeholderData: keepPreviousData,
  });
  const changeQuery = (change: Partial<AdminUserListQuery>) => setQuery((current) => ({ ...current, ...change }));

  const actions = (
    <>
      {access.can('user.create') && (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreateOpen(true)}
          data-testid="user-create-button"
        >
          {t('admin:users.add')}
        </Button>
      )}
      {access.can('user.import') && (
        <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)} data-testid="import-csv">
          {t('admin:import.button')}
        </Button>
      )}
      {access.can('user.export') && <ExportCsvButton download={() => exportUsersCsv(exportFilters(query))} />}
    </>
  );

  return (
    <>
      <AdminPageHeader title={t('admin:users.title')} actions={actions} />
      <Card styles={{ body: { padding: isMobile ? 12 : undefined } }}>
        <UserFilters
          value={query}
          onChange={(filters) => changeQuery({ ...filters, page: 1 })}
          groupOptions={groupOptions}
          showGroupFilter={seesAllGroups}
        />
        <BulkActionsBar
          selectedIds={selectedIds}
          canChangeStatus={access.can('user.status')}
          canMove={access.canEverywhere('user.move')}
          groupOptions={groupOptions}
          onClearSelection={() => setSelectedIds([])}
        />
        {list.isError && !list.data ? (
          <QueryErrorResult error={list.error} onRetry={() => void list.refetch()} testId="users-error" />
        ) : (
          <UsersTable
            users={list.data?.items ?? []}
            pagination={list.data?.pagination}
            loading={list.isFetching}
            query={query}
            onQueryChange={changeQuery}
            selectedIds={selectedIds}
            onSelectionChange={setSelectedIds}
            isMobile={isMobile}
            onOpenDetail={(user) => detail.show(user.id)}
            onAdjustCredits={credit.show}
          />
        )}
      </Card>
      <CreateUserModal
        open={createOpen}
        onClose={() => setCreateOpen(false)}
        canSetRole={access.canEverywhere('user.role')}
        canSetGroup={access.canEverywhere('user.create')}
        canSetCredits={access.can('credits.adjust')}
        groupOptions={groupOptions}
        groups={groups}
      />
      <ImportUsersModal open={importOpen} onClose={() => setImportOpen(false)} />
      <UserDetailDrawer
        userId={detail.target}
        open={detail.open}
        onClose={detail.hide}
        afterClose={detail.afterClose}
        groupOptions={groupOptions}
        onAdjustCredits={credit.show}
      />
      <CreditModal user={credit.target} open={credit.open} onClose={credit.hide} afterClose={credit.afterClose} />
    </>
  );
}

/** User management: whoever may read users, everywhere or in their own group. */
export default function AdminUsersPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('layout:menu.users'));
  return (
    <AccessGuard page="users">
      <AdminTheme>
        <UsersWorkspace />
      </AdminTheme>
    </AccessGuard>
  );
}
