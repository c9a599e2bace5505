import type { LegalHold } from '@aiplatform/contracts';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { AccessGuard } from '../../../components/common/AccessGuard';
import { formatDateTime } from '../../../components/common/format';
import { useDocumentTitle } from '../../../components/common/use-document-title';
import { i18n } from '../../../i18n';
import { registerAdminResources } from '../../../i18n/admin-resources';
import { AdminPageHeader } from '../shared/AdminPageHeader';
import { AdminTheme } from '../shared/AdminTheme';
import { DangerButton } from '../shared/DangerButton';
import { QueryTable } from '../shared/QueryTable';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { PlaceHoldModal } from './PlaceHoldModal';

registerAdminResources(i18n);

/** Releases a hold through the call of its subject's kind. */
export function releaseHold(hold: Pick<LegalHold, 'subject_type' | 'subject_id'>) {
  const options = { params: { id: hold.subject_id }, body: { on: false, reason: '' } };
  return hold.subject_type === 'user' ? call('setUserLegalHold', options) : call('setGroupLegalHold', options);
}

function LegalHoldsCard() {
  const { t } = useTranslation();
  const [placing, setPlacing] = useState(false);
  const list = useQuery({ queryKey: adminKeys.legalHolds, queryFn: () => call('listLegalHolds') });
  const release = useAdminMutation({
    mutationFn: releaseHold,
    invalidates: [adminKeys.legalHolds],
    successText: (_r, hold) => t('admin:legalHolds.releasedDone', { name: (hold as LegalHold).subject_name }),
    failureKey: 'admin:legalHolds.releaseFailed',
  });
  const columns: ColumnsType<LegalHold> = [
    {
      title: t('admin:legalHolds.subject'),
      key: 'subject',
      render: (_: unknown, hold) => (
        <span data-testid={`legal-hold-subject-${hold.subject_type}-${hold.subject_id}`}>
          <Tag>{t(`admin:legalHolds.kind.${hold.subject_type}`)}</Tag>
          {hold.subject_name}
        </span>
      ),
    },
    { title: t('admin:legalHolds.reason'), dataIndex: 'reason' },
    {
      title: t('admin:legalHolds.placed'),
      key: 'placed',
      responsive: ['md'],
      render: (_: unknown, hold) =>
        `${formatDateTime(hold.placed_at, i18n.language)}${hold.placed_by_name ? ` · ${hold.placed_by_name}` : ''}`,
    },
    {
      title: t('admin:legalHolds.actions'),
      key: 'actions',
      render: (_: unknown, hold) => (
        <DangerButton
          title={t('admin:legalHolds.releaseConfirm', { name: hold.subject_name })}
          hint={t('admin:legalHolds.releaseHint')}
          label={t('admin:legalHolds.release')}
          onConfirm={() => release.mutateAsync(hold)}
          testId={`legal-hold-release-${hold.subject_type}-${hold.subject_id}`}
        />
      ),
    },
  ];
  return (
    <Card
      title={t('admin:legalHolds.listTitle')}
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setPlacing(true)} data-testid="legal-hold-place-button">
          {t('admin:legalHolds.place')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('admin:legalHolds.intro')}</Typography.Paragraph>
      <QueryTable list={list} columns={columns} emptyText={t('admin:legalHolds.empty')} testId="legal-holds" />
      <PlaceHoldModal open={placing} onClose={() => setPlacing(false)} />
    </Card>
  );
}

/** Legal holds: every hold on a user or a group, placed and released here by super administrators. */
export default function AdminLegalHoldsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('admin:legalHolds.title'));
  return (
    <AccessGuard page="legalHolds">
      <AdminTheme>
        <AdminPageHeader title={t('admin:legalHolds.title')} />
        <LegalHoldsCard />
      </AdminTheme>
    </AccessGuard>
  );
}
