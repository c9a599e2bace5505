import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Flex, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { refreshPublicConfig } from '../../../api/use-public-config';
import { useAdminMutation } from '../shared/use-admin-mutation';

/**
 * Single sign-on only: local passwords stop working for everyone but super administrators
 * (the break-glass account for a directory that is down), and the sign-in page shows the
 * providers first.
 */
export function LocalPasswordCard() {
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: adminKeys.identityProviders, queryFn: () => call('listIdentityProviders') });
  const enabledProviders = (providers.data ?? []).filter((p) => p.enabled).length;
  const settings = useQuery({ queryKey: adminKeys.settings, queryFn: () => call('getSettings') });
  const ssoOnly = settings.data?.login.local_password === 'super_admin_only';
  const save = useAdminMutation({
    mutationFn: (on: boolean) =>
      call('updateSettings', { body: { login: { local_password: on ? 'super_admin_only' : 'all' } } }),
    invalidates: [adminKeys.settings],
    successText: (_r, on) => t(on ? 'admin:identity.policy.onDone' : 'admin:identity.policy.offDone'),
    failureKey: 'admin:identity.policy.failed',
    onSuccess: () => void refreshPublicConfig(),
  });
  return (
    <Card title={t('admin:identity.policy.title')}>
      <Flex gap={12} align="center">
        <Switch
          id="sso-only-switch"
          checked={ssoOnly}
          loading={settings.isLoading || save.isPending}
          onChange={(on) => save.mutate(on)}
          data-testid="sso-only-switch"
        />
        <label htmlFor="sso-only-switch">
          <Typography.Text strong>{t('admin:identity.policy.switch')}</Typography.Text>
        </label>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t('admin:identity.policy.hint')}
      </Typography.Paragraph>
      {!ssoOnly && providers.isSuccess && enabledProviders === 0 && (
        <Alert type="info" showIcon message={t('admin:identity.policy.noProviders')} />
      )}
    </Card>
  );
}
