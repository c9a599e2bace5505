import type { AdminSettings } from '@aiplatform/contracts';
import { Form, Input, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { SettingsSection } from './SettingsSection';
import { SettingsTabForm } from './SettingsTabForm';

/** Sign-in attempts, token lifetime, idle timeout and request rate limits. */
export function SecurityTab({ settings, readOnly }: { settings: AdminSettings; readOnly: boolean }) {
  const { t } = useTranslation();
  return (
    <SettingsTabForm tab="security" settings={settings} readOnly={readOnly}>
      <SettingsSection title={t('settings:security.section')}>
        <Form.Item
          name={['security', 'max_login_attempts']}
          label={t('settings:security.maxLoginAttempts')}
          extra={t('settings:security.maxLoginAttemptsHint')}
        >
          <InputNumber<number>
            min={1}
            max={1000}
            precision={0}
            style={{ width: '100%' }}
            data-testid="settings-max-login-attempts"
          />
        </Form.Item>
        <Form.Item
          name={['security', 'token_expires_in']}
          label={t('settings:security.tokenExpiresIn')}
          extra={t('settings:security.tokenExpiresInHint')}
        >
          <Input maxLength={6} placeholder="12h" data-testid="settings-token-expires-in" />
        </Form.Item>
        <Form.Item
          name={['security', 'session_timeout_minutes']}
          label={t('settings:security.sessionTimeout')}
          extra={t('settings:security.sessionTimeoutHint')}
        >
          <InputNumber<number>
            min={0}
            max={525_600}
            precision={0}
            style={{ width: '100%' }}
            data-testid="settings-session-timeout"
          />
        </Form.Item>
        <Form.Item
          name={['security', 'rate_limit_enabled']}
          label={t('settings:security.rateLimit')}
          valuePropName="checked"
          extra={t('settings:security.rateLimitHint')}
        >
          <Switch data-testid="settings-rate-limit" />
        </Form.Item>
        <Form.Item
          name={['sharing', 'public_links']}
          label={t('settings:security.publicShareLinks')}
          valuePropName="checked"
          extra={t('settings:security.publicShareLinksHint')}
        >
          <Switch data-testid="settings-public-share-links" />
        </Form.Item>
      </SettingsSection>
    </SettingsTabForm>
  );
}
