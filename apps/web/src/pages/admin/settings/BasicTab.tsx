import { type AdminSettings, LOGIN_MODES } from '@aiplatform/contracts';
import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGroupOptions } from '../shared/use-group-options';
import { SettingsSection } from './SettingsSection';
import { SettingsTabForm } from './SettingsTabForm';
import { SiteImageInput } from './SiteImageInput';
import { ThemeColorInput } from './ThemeColorInput';
import { THEME_COLOR_NAMES } from './settings-form';
import { useModelOptions } from './use-model-options';

const LOGIN_MODE_KEYS = {
  standard: 'settings:basic.loginModes.standard',
  email_verify_required: 'settings:basic.loginModes.email_verify_required',
} as const;

const COLOR_KEYS = {
  primary: 'settings:basic.colors.primary',
  success: 'settings:basic.colors.success',
  warning: 'settings:basic.colors.warning',
  error: 'settings:basic.colors.error',
  info: 'settings:basic.colors.info',
} as const;

/** Site identity, new accounts, chat defaults, sign-in mode and theme colours. */
export function BasicTab({ settings, readOnly }: { settings: AdminSettings; readOnly: boolean }) {
  const { t } = useTranslation();
  const groups = useGroupOptions();
  const models = useModelOptions(settings.ai.default_model);
  const groupOptions = groups.options.some((g) => g.value === settings.user.default_group_id)
    ? groups.options
    : [
        ...groups.options,
        {
          value: settings.user.default_group_id,
          label: t('settings:basic.groupById', { id: settings.user.default_group_id }),
        },
      ];

  return (
    <SettingsTabForm tab="basic" settings={settings} readOnly={readOnly}>
      <SettingsSection title={t('settings:basic.siteSection')}>
        <Form.Item
          name={['site', 'name']}
          label={t('settings:basic.siteName')}
          extra={t('settings:basic.siteNameHint')}
        >
          <Input maxLength={100} placeholder={t('common:defaultSiteName')} data-testid="settings-site-name" />
        </Form.Item>
        <Form.Item name={['site', 'description']} label={t('settings:basic.siteDescription')}>
          <Input.TextArea
            maxLength={500}
            autoSize={{ minRows: 1, maxRows: 4 }}
            placeholder={t('common:defaultSiteDescription')}
            data-testid="settings-site-description"
          />
        </Form.Item>
        <Form.Item name={['site', 'logo']} label={t('settings:basic.logo')} extra={t('settings:basic.logoHint')}>
          <SiteImageInput kind="logo" readOnly={readOnly} />
        </Form.Item>
        <Form.Item
          name={['site', 'favicon']}
          label={t('settings:basic.favicon')}
          extra={t('settings:basic.faviconHint')}
        >
          <SiteImageInput kind="favicon" readOnly={readOnly} />
        </Form.Item>
      </SettingsSection>

      <SettingsSection title={t('settings:basic.accountsSection')}>
        <Form.Item name={['user', 'allow_register']} label={t('settings:basic.allowRegister')} valuePropName="checked">
          <Switch data-testid="settings-allow-register" />
        </Form.Item>
        <Form.Item
          name={['user', 'email_verification']}
          label={t('settings:basic.emailVerification')}
          valuePropName="checked"
          extra={t('settings:basic.emailVerificationHint')}
        >
          <Switch data-testid="settings-email-verification" />
        </Form.Item>
        <Form.Item name={['user', 'default_credits']} label={t('settings:basic.defaultCredits')}>
          <InputNumber<number> min={0} precision={0} style={{ width: '100%' }} data-testid="settings-default-credits" />
        </Form.Item>
        <Form.Item name={['user', 'default_tokens']} label={t('settings:basic.defaultTokens')}>
          <InputNumber<number> min={0} precision={0} style={{ width: '100%' }} data-testid="settings-default-tokens" />
        </Form.Item>
        <Form.Item name={['user', 'default_group_id']} label={t('settings:basic.defaultGroup')}>
          <Select
            options={groupOptions}
            loading={groups.loading}
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="settings-default-group"
          />
        </Form.Item>
      </SettingsSection>

      <SettingsSection title={t('settings:basic.chatSection')}>
        <Form.Item name={['ai', 'default_model']} label={t('settings:basic.defaultModel')}>
          <Select
            options={models.options}
            loading={models.loading}
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="settings-default-model"
          />
        </Form.Item>
        <Form.Item
          name={['ai', 'temperature']}
          label={t('settings:basic.temperature')}
          extra={t('settings:basic.temperatureHint')}
        >
          <InputNumber<number>
            min={0}
            max={1}
            step={0.1}
            style={{ width: '100%' }}
            data-testid="settings-temperature"
          />
        </Form.Item>
        <Form.Item
          name={['ai', 'model_titles']}
          label={t('settings:basic.modelTitles')}
          extra={t('settings:basic.modelTitlesHint')}
          valuePropName="checked"
        >
          <Switch data-testid="settings-model-titles" />
        </Form.Item>
        <Form.Item
          name={['chat', 'font_family']}
          label={t('settings:basic.fontFamily')}
          extra={t('settings:basic.fontFamilyHint')}
        >
          <Input maxLength={200} data-testid="settings-font-family" />
        </Form.Item>
        <Form.Item name={['chat', 'font_size']} label={t('settings:basic.fontSize')}>
          <InputNumber<number>
            min={10}
            max={32}
            precision={0}
            suffix="px"
            style={{ width: '100%' }}
            data-testid="settings-font-size"
          />
        </Form.Item>
      </SettingsSection>

      <SettingsSection title={t('settings:basic.loginSection')}>
        <Form.Item
          name={['login', 'mode']}
          label={t('settings:basic.loginMode')}
          extra={t('settings:basic.loginModeHint')}
        >
          <Select
            options={LOGIN_MODES.map((mode) => ({ value: mode, label: t(LOGIN_MODE_KEYS[mode]) }))}
            data-testid="settings-login-mode"
          />
        </Form.Item>
      </SettingsSection>

      <SettingsSection title={t('settings:basic.colorsSection')}>
        {THEME_COLOR_NAMES.map((name) => (
          <Form.Item key={name} name={['theme', 'colors', name]} label={t(COLOR_KEYS[name])}>
            <ThemeColorInput testId={`settings-color-${name}`} />
          </Form.Item>
        ))}
      </SettingsSection>
    </SettingsTabForm>
  );
}
