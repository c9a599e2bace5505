import type { AdminSettings } from '@aiplatform/contracts';
import { Form, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { SettingsSection } from './SettingsSection';
import { SettingsTabForm } from './SettingsTabForm';

/** Whether chats cost credits, the balance a chat needs, and the price of models without their own. */
export function CreditsTab({ settings, readOnly }: { settings: AdminSettings; readOnly: boolean }) {
  const { t } = useTranslation();
  return (
    <SettingsTabForm tab="credits" settings={settings} readOnly={readOnly}>
      <SettingsSection title={t('settings:credits.section')}>
        <Form.Item
          name={['credits', 'enabled']}
          label={t('settings:credits.enabled')}
          valuePropName="checked"
          extra={t('settings:credits.enabledHint')}
        >
          <Switch data-testid="settings-credits-enabled" />
        </Form.Item>
        <Form.Item
          name={['credits', 'min_credits_for_chat']}
          label={t('settings:credits.minForChat')}
          extra={t('settings:credits.minForChatHint')}
        >
          <InputNumber<number> min={0} precision={0} style={{ width: '100%' }} data-testid="settings-min-credits" />
        </Form.Item>
        <Form.Item
          name={['credits', 'default_credits_per_chat']}
          label={t('settings:credits.perChat')}
          extra={t('settings:credits.perChatHint')}
        >
          <InputNumber<number>
            min={0}
            precision={0}
            style={{ width: '100%' }}
            data-testid="settings-credits-per-chat"
          />
        </Form.Item>
      </SettingsSection>
    </SettingsTabForm>
  );
}
