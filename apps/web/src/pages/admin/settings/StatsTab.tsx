import type { AdminSettings } from '@aiplatform/contracts';
import { BarChartOutlined } from '@ant-design/icons';
import { Form, InputNumber, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAbilities } from '../../../stores/abilities';
import { SettingsSection } from './SettingsSection';
import { SettingsTabForm } from './SettingsTabForm';
import { browserTimeZones, timeZoneOptions } from './time-zone-options';

/** The zone a statistics day is counted in, and the thresholds of the credit warnings. */
export function StatsTab({ settings, readOnly }: { settings: AdminSettings; readOnly: boolean }) {
  const { t } = useTranslation();
  const mayOpenStats = useAbilities().pages.stats;
  const stored = settings.stats.time_zone;
  const zones = useMemo(
    () => [
      { value: '', label: t('settings:stats.serverTimeZone') },
      ...timeZoneOptions(browserTimeZones(), stored, new Date()),
    ],
    [stored, t],
  );
  return (
    <SettingsTabForm tab="stats" settings={settings} readOnly={readOnly}>
      <SettingsSection title={t('settings:stats.section')}>
        <Form.Item
          name={['stats', 'time_zone']}
          label={t('settings:stats.timeZone')}
          extra={t('settings:stats.timeZoneHint')}
        >
          <Select<string>
            showSearch={{ optionFilterProp: 'label' }}
            options={zones}
            aria-label={t('settings:stats.timeZone')}
            data-testid="settings-time-zone"
          />
        </Form.Item>
        <Form.Item
          name={['stats', 'low_credits_threshold']}
          label={t('settings:stats.lowCredits')}
          extra={t('settings:stats.lowCreditsHint')}
        >
          <InputNumber<number>
            min={0}
            precision={0}
            style={{ width: '100%' }}
            data-testid="settings-low-credits-threshold"
          />
        </Form.Item>
        <Form.Item
          name={['stats', 'pool_alert_percent']}
          label={t('settings:stats.poolAlert')}
          extra={t('settings:stats.poolAlertHint')}
        >
          <InputNumber<number>
            min={0}
            max={100}
            precision={0}
            suffix="%"
            style={{ width: '100%' }}
            data-testid="settings-pool-alert-percent"
          />
        </Form.Item>
      </SettingsSection>
      {mayOpenStats && (
        <Link to="/admin/stats" data-testid="settings-stats-link">
          <BarChartOutlined /> {t('settings:stats.openStats')}
        </Link>
      )}
    </SettingsTabForm>
  );
}
