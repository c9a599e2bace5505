import type { Group, GroupSiteConfigBody } from '@aiplatform/contracts';
import { Button, Flex, Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { useAdminMutation } from '../shared/use-admin-mutation';

interface SiteConfigValues {
  site_name: string;
  site_logo: string;
  enabled: boolean;
}

/** The site name and logo the group's members see instead of the platform's. */
export function SiteConfigForm({ group }: { group: Group }) {
  const { t } = useTranslation();
  const save = useAdminMutation({
    mutationFn: (body: GroupSiteConfigBody) => call('setGroupSiteConfig', { params: { id: group.id }, body }),
    invalidates: [adminKeys.groups],
    successText: (saved) => t('admin:site.done', { name: saved.name }),
    failureKey: 'admin:site.failed',
  });
  return (
    <Form<SiteConfigValues>
      layout="vertical"
      initialValues={{
        site_name: group.site_name ?? '',
        site_logo: group.site_logo ?? '',
        enabled: group.site_config_enabled,
      }}
      onFinish={(values) =>
        save.mutate({
          site_name: values.site_name.trim() || null,
          site_logo: values.site_logo.trim() || null,
          enabled: values.enabled,
        })
      }
      data-testid="group-site-form"
    >
      <Form.Item
        name="enabled"
        label={t('admin:site.enabled')}
        valuePropName="checked"
        extra={t('admin:site.enabledHint')}
      >
        <Switch data-testid="group-site-enabled" />
      </Form.Item>
      <Form.Item
        name="site_name"
        label={t('admin:site.name')}
        rules={[{ max: 100, message: t('validation:siteName.max') }]}
      >
        <Input maxLength={100} data-testid="group-site-name" />
      </Form.Item>
      <Form.Item
        name="site_logo"
        label={t('admin:site.logo')}
        rules={[{ max: 1000, message: t('validation:siteLogo.max') }]}
      >
        <Input placeholder="https://…" data-testid="group-site-logo" />
      </Form.Item>
      <Flex justify="end">
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="group-site-submit">
          {t('admin:actions.save')}
        </Button>
      </Flex>
    </Form>
  );
}
