import { type AdminSettings, STORAGE_LIMITS } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, InputNumber, Progress, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { formatBytes } from '../../../components/common/format';
import { SettingsSection } from './SettingsSection';
import { SettingsTabForm } from './SettingsTabForm';
import { storageUsageView } from './storage-usage';

const PROGRESS_STATUS = { normal: 'normal', alert: 'active', full: 'exception' } as const;

/** What the site stores now (counted by the server from its database) against the budget. */
function StorageUsageFigures() {
  const { t, i18n } = useTranslation();
  const query = useQuery({ queryKey: adminKeys.storageUsage, queryFn: () => call('getStorageUsage') });
  if (query.isLoading) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (!query.data) {
    return (
      <Alert type="warning" showIcon title={t('settings:storage.usageFailed')} data-testid="storage-usage-error" />
    );
  }
  const usage = query.data;
  const size = (bytes: number) => formatBytes(bytes, i18n.language);
  const view = storageUsageView(usage);
  return (
    <div className="storage-usage" data-testid="storage-usage">
      <Typography.Text strong>{t('settings:storage.usageTitle')}</Typography.Text>
      <div data-testid="storage-usage-text">
        {view.percent === null
          ? t('settings:storage.usedNoBudget', { used: size(usage.used_bytes) })
          : t('settings:storage.usedOfBudget', {
              used: size(usage.used_bytes),
              budget: size(usage.budget_bytes),
              percent: view.percent,
            })}
      </div>
      {view.percent !== null && (
        <Progress
          percent={view.percent}
          status={PROGRESS_STATUS[view.level]}
          aria-label={t('settings:storage.usageTitle')}
          data-testid="storage-usage-bar"
        />
      )}
      <Typography.Text type="secondary" data-testid="storage-usage-breakdown">
        {t('settings:storage.breakdown', { images: size(usage.images_bytes), avatars: size(usage.avatars_bytes) })}
      </Typography.Text>
      {view.level !== 'normal' && (
        <Alert
          type={view.level === 'full' ? 'error' : 'warning'}
          showIcon
          title={t(view.level === 'full' ? 'settings:storage.full' : 'settings:storage.nearlyFull')}
          style={{ marginTop: 8 }}
          data-testid="storage-usage-warning"
        />
      )}
    </div>
  );
}

/** The site's storage budget and its alert, and how much one address may upload an hour. */
export function StorageTab({ settings, readOnly }: { settings: AdminSettings; readOnly: boolean }) {
  const { t } = useTranslation();
  return (
    <SettingsTabForm tab="storage" settings={settings} readOnly={readOnly}>
      <StorageUsageFigures />
      <SettingsSection title={t('settings:storage.section')}>
        <Form.Item
          name={['storage', 'budget_mb']}
          label={t('settings:storage.budget')}
          extra={t('settings:storage.budgetHint')}
        >
          <InputNumber<number>
            min={0}
            max={STORAGE_LIMITS.budgetMbMax}
            precision={0}
            suffix="MB"
            style={{ width: '100%' }}
            data-testid="settings-storage-budget"
          />
        </Form.Item>
        <Form.Item
          name={['storage', 'alert_percent']}
          label={t('settings:storage.alertPercent')}
          extra={t('settings:storage.alertPercentHint')}
        >
          <InputNumber<number>
            min={0}
            max={100}
            precision={0}
            suffix="%"
            style={{ width: '100%' }}
            data-testid="settings-storage-alert-percent"
          />
        </Form.Item>
        <Form.Item
          name={['storage', 'address_mb_per_hour']}
          label={t('settings:storage.addressLimit')}
          extra={t('settings:storage.addressLimitHint')}
        >
          <InputNumber<number>
            min={0}
            max={STORAGE_LIMITS.addressMbPerHourMax}
            precision={0}
            suffix="MB"
            style={{ width: '100%' }}
            data-testid="settings-storage-address-limit"
          />
        </Form.Item>
      </SettingsSection>
    </SettingsTabForm>
  );
}
