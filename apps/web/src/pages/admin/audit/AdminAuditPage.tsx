import type { AuditListQuery, AuditLog, AuditVerifyResult } from '@aiplatform/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Empty, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callPage } from '../../../api/call';
import { exportAuditCsv } from '../../../api/admin-files';
import { adminKeys } from '../../../api/query-keys';
import { AccessGuard } from '../../../components/common/AccessGuard';
import { useDocumentTitle } from '../../../components/common/use-document-title';
import { i18n } from '../../../i18n';
import { registerAdminResources } from '../../../i18n/admin-resources';
import { AdminPageHeader } from '../shared/AdminPageHeader';
import { AdminTheme } from '../shared/AdminTheme';
import { ExportCsvButton } from '../shared/ExportCsvButton';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import { useOverlaySize } from '../shared/use-overlay-size';
import { AuditChangesView } from './AuditChangesView';
import { AuditCheckpointActions } from './AuditCheckpointActions';
import { CheckpointSavedAlert } from './CheckpointSavedAlert';
import { AuditFilters } from './AuditFilters';
import { VerifyChainButton } from './VerifyChainButton';
import { VerifyResultAlert } from './VerifyResultAlert';
import { INITIAL_AUDIT_QUERY, auditExportFilters } from './audit-query';
import { auditColumns } from './audit-columns';

// Admin translations arrive with the admin chunks, before any admin screen renders.
registerAdminResources(i18n);

function AuditWorkspace() {
  const { t, i18n: i18next } = useTranslation();
  const { isMobile } = useOverlaySize();
  const [query, setQuery] = useState<AuditListQuery>(INITIAL_AUDIT_QUERY);
  const [verdict, setVerdict] = useState<AuditVerifyResult | null>(null);
  const [savedCount, setSavedCount] = useState<number | null>(null);
  const list = useQuery({
    queryKey: adminKeys.auditList(query),
    queryFn: () => callPage('listAuditLogs', { query }),
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <AdminPageHeader
        title={t('admin:audit.title')}
        actions={
          <>
            <VerifyChainButton onResult={setVerdict} />
            <AuditCheckpointActions onResult={setVerdict} onSaved={setSavedCount} />
            <ExportCsvButton download={() => exportAuditCsv(auditExportFilters(query))} />
          </>
        }
      />
      {savedCount !== null && <CheckpointSavedAlert count={savedCount} onClose={() => setSavedCount(null)} />}
      {verdict && <VerifyResultAlert result={verdict} onClose={() => setVerdict(null)} />}
      <Card styles={{ body: { padding: isMobile ? 12 : undefined } }}>
        <AuditFilters value={query} onChange={(filters) => setQuery({ ...filters, page: 1, limit: query.limit })} />
        {list.isError && !list.data ? (
          <QueryErrorResult error={list.error} onRetry={() => void list.refetch()} testId="audit-error" />
        ) : (
          <Table<AuditLog>
            rowKey="id"
            size="middle"
            columns={auditColumns(t, i18next.language)}
            dataSource={list.data?.items ?? []}
            loading={list.isFetching}
            scroll={{ x: 1100 }}
            expandable={{ expandedRowRender: (row) => <AuditChangesView changes={row.changes} /> }}
            locale={{ emptyText: <Empty description={t('admin:audit.empty')} data-testid="audit-empty" /> }}
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
            data-testid="audit-table"
          />
        )}
      </Card>
    </>
  );
}

/** The audit log: super administrators only. */
export default function AdminAuditPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('layout:menu.audit'));
  return (
    <AccessGuard page="audit">
      <AdminTheme>
        <AuditWorkspace />
      </AdminTheme>
    </AccessGuard>
  );
}
