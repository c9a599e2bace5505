import type { AdminSettings, RetentionRun, RetentionRunResult } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, InputNumber, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { formatDateTime } from '../../../components/common/format';
import { useAbilities } from '../../../stores/abilities';
import { DangerButton } from '../shared/DangerButton';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { SettingsSection } from './SettingsSection';
import { SettingsTabForm } from './SettingsTabForm';

/** Running retention now (dry or for real) and the latest runs: super administrators only. */
function RetentionRuns() {
  const { t, i18n } = useTranslation();
  const [last, setLast] = useState<(RetentionRunResult & { dry: boolean }) | null>(null);
  const runs = useQuery({ queryKey: adminKeys.retentionRuns, queryFn: () => call('listRetentionRuns') });
  const run = useAdminMutation({
    mutationFn: (dry: boolean) => call('runRetention', { body: { dry_run: dry } }),
    invalidates: [adminKeys.retentionRuns],
    successText: (r, dry) => t(dry ? 'settings:retention.dryDone' : 'settings:retention.runDone', r),
    failureKey: 'settings:retention.runFailed',
    onSuccess: (r, dry) => setLast({ ...r, dry }),
  });
  const columns: ColumnsType<RetentionRun> = [
    {
      title: t('settings:retention.started'),
      dataIndex: 'started_at',
      render: (v: string) => formatDateTime(v, i18n.language),
    },
    {
      title: t('settings:retention.kind'),
      key: 'kind',
      render: (_: unknown, r) => (
        <Flex gap={4} wrap>
          {r.dry_run && <Tag>{t('settings:retention.dry')}</Tag>}
          <span>{r.started_by_name ?? t('settings:retention.dailyJob')}</span>
        </Flex>
      ),
    },
    {
      title: t('settings:retention.status'),
      dataIndex: 'status',
      render: (s: string) => t(`settings:retention.statuses.${s}`),
    },
    { title: t('settings:retention.conversations'), dataIndex: 'conversations', align: 'right' },
    { title: t('settings:retention.files'), dataIndex: 'files', align: 'right', responsive: ['sm'] },
  ];
  return (
    <section className="settings-section" data-testid="retention-runs">
      <Typography.Title level={5} className="settings-section-title">
        {t('settings:retention.runsSection')}
      </Typography.Title>
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('settings:retention.runsHint')}</Typography.Text>
        <Flex gap={8} wrap>
          <Button
            onClick={() => run.mutate(true)}
            loading={run.isPending && run.variables === true}
            data-testid="retention-dry-run"
          >
            {t('settings:retention.dryRun')}
          </Button>
          <DangerButton
            title={t('settings:retention.runConfirm')}
            hint={t('settings:retention.runHint')}
            label={t('settings:retention.runNow')}
            onConfirm={() => run.mutateAsync(false)}
            testId="retention-run"
          />
        </Flex>
        {last && (
          <Alert
            type={last.dry ? 'info' : 'success'}
            showIcon
            title={t(last.dry ? 'settings:retention.dryDone' : 'settings:retention.runDone', last)}
            data-testid="retention-result"
          />
        )}
        <Table<RetentionRun>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={runs.data ?? []}
          loading={runs.isLoading}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('settings:retention.noRuns') }}
          data-testid="retention-runs-table"
        />
      </Flex>
    </section>
  );
}

/** How long conversations are kept after their last use, and (for super administrators) the runs. */
export function RetentionTab({ settings, readOnly }: { settings: AdminSettings; readOnly: boolean }) {
  const { t } = useTranslation();
  const mayRun = useAbilities().actions['retention.manage'] === 'all';
  return (
    <>
      <SettingsTabForm tab="retention" settings={settings} readOnly={readOnly}>
        <SettingsSection title={t('settings:retention.section')}>
          <Form.Item
            name={['retention', 'days']}
            label={t('settings:retention.days')}
            extra={t('settings:retention.daysHint')}
          >
            <InputNumber<number>
              min={1}
              max={36_500}
              precision={0}
              placeholder={t('settings:retention.forever')}
              style={{ width: '100%' }}
              data-testid="settings-retention-days"
            />
          </Form.Item>
        </SettingsSection>
      </SettingsTabForm>
      {mayRun && <RetentionRuns />}
    </>
  );
}
