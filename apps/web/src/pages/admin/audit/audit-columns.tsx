import type { AuditLog } from '@aiplatform/contracts';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { formatDateTime } from '../../../components/common/format';

/** Columns of the audit log; the changes themselves open in the expanded row. */
export function auditColumns(t: TFunction, language: string): ColumnsType<AuditLog> {
  return [
    { key: 'id', title: t('admin:audit.columns.id'), dataIndex: 'id', width: 70 },
    {
      key: 'time',
      title: t('admin:audit.columns.time'),
      dataIndex: 'created_at',
      width: 170,
      render: (v: string) => formatDateTime(v, language),
    },
    {
      key: 'actor',
      title: t('admin:audit.columns.actor'),
      width: 150,
      render: (_, row) =>
        row.actor_username ? `${row.actor_username} (#${row.actor_id ?? '?'})` : t('admin:audit.systemActor'),
    },
    {
      key: 'action',
      title: t('admin:audit.columns.action'),
      dataIndex: 'action',
      width: 190,
      render: (v: string) => <Tag color="geekblue">{v}</Tag>,
    },
    {
      key: 'target',
      title: t('admin:audit.columns.target'),
      width: 140,
      render: (_, row) => (row.target_id ? `${row.target_type} #${row.target_id}` : row.target_type),
    },
    {
      key: 'ip',
      title: t('admin:audit.columns.ip'),
      dataIndex: 'ip',
      width: 130,
      render: (v: string | null) => v ?? '—',
    },
    {
      key: 'requestId',
      title: t('admin:audit.columns.requestId'),
      dataIndex: 'request_id',
      width: 200,
      render: (v: string | null) =>
        v ? (
          <Typography.Text copyable style={{ fontSize: 12 }}>
            {v}
          </Typography.Text>
        ) : (
          '—'
        ),
    },
  ];
}
