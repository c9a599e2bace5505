import type { Homepage, HomepageBody } from '@aiplatform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Col, Flex, Form, Input, Popconfirm, Row, Switch, Tag, Typography } from 'antd';
import { useDeferredValue, useState } from 'react';
import { useReportUnsaved } from './unsaved-edits';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/call';
import { toast } from '../../../api/notify';
import { adminKeys } from '../../../api/query-keys';
import { useSiteBranding } from '../../../api/use-public-config';
import { formatDateTime } from '../../../components/common/format';
import { reportError } from '../../../components/common/report-error';
import { defaultHomepageHtml, homepagePreviewDocument } from './homepage-template';
import { refreshSiteLook } from './use-save-settings';

interface HomepageValues {
  enabled: boolean;
  html: string;
}

const FEATURES = ['chat', 'models', 'apps'] as const;

/** Editor, live preview, switch and save of the custom homepage. */
export function HomepageEditor({ homepage, readOnly }: { homepage: Homepage; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const { name } = useSiteBranding();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<HomepageValues>();
  const [dirty, setDirty] = useState(false);
  useReportUnsaved('homepage', dirty);
  const html = Form.useWatch('html', form) ?? homepage.html;
  // Typing stays smooth: the preview catches up when the browser has time.
  const preview = useDeferredValue(html);

  const save = useMutation({
    mutationFn: (body: HomepageBody) => call('updateHomepage', { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(adminKeys.homepage, saved);
      toast('success', t('settings:homepage.saved'));
      void refreshSiteLook();
    },
    onError: (error) => reportError(error, 'settings:homepage.saveFailed'),
  });

  const applyTemplate = () => {
    form.setFieldValue(
      'html',
      defaultHomepageHtml({
        title: t('settings:homepage.template.title', { name }),
        intro: t('settings:homepage.template.intro'),
        signIn: t('settings:homepage.template.signIn'),
        register: t('settings:homepage.template.register'),
        features: FEATURES.map((key) => ({
          title: t(`settings:homepage.template.features.${key}.title`),
          text: t(`settings:homepage.template.features.${key}.text`),
        })),
      }),
    );
    setDirty(true);
  };

  return (
    <Form<HomepageValues>
      form={form}
      layout="vertical"
      initialValues={{ enabled: homepage.enabled, html: homepage.html }}
      disabled={readOnly}
      onValuesChange={() => setDirty(true)}
      onFinish={(values) => save.mutate(values, { onSuccess: () => setDirty(false) })}
      data-testid="settings-form-homepage"
    >
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary" data-testid="homepage-updated-at">
          {homepage.updated_at
            ? t('settings:homepage.updatedAt', { time: formatDateTime(homepage.updated_at, i18n.language) })
            : t('settings:homepage.neverSaved')}
        </Typography.Text>
        <Tag color={homepage.enabled ? 'success' : 'default'} data-testid="homepage-status">
          {homepage.enabled ? t('settings:homepage.statusOn') : t('settings:homepage.statusOff')}
        </Tag>
      </Flex>
      <Form.Item
        name="enabled"
        label={t('settings:homepage.enabled')}
        valuePropName="checked"
        extra={t('settings:homepage.enabledHint')}
      >
        <Switch data-testid="homepage-enabled" />
      </Form.Item>
      <Row gutter={24}>
        <Col xs={24} lg={12}>
          <Form.Item
            name="html"
            label={t('settings:homepage.html')}
            extra={t('settings:homepage.htmlHint')}
            rules={[{ max: 200_000, message: t('validation:homepage.max') }]}
          >
            <Input.TextArea
              className="homepage-html-input"
              autoSize={{ minRows: 14, maxRows: 28 }}
              spellCheck={false}
              data-testid="homepage-html"
            />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <div className="homepage-preview-label">{t('settings:homepage.preview')}</div>
          {/* No permissions at all: the preview shows the page but runs nothing in it. */}
          <iframe
            className="homepage-preview"
            title={t('settings:homepage.preview')}
            sandbox=""
            srcDoc={homepagePreviewDocument(preview, name)}
            data-testid="homepage-preview"
          />
        </Col>
      </Row>
      {!readOnly && (
        <Flex gap={8} justify="end" align="center" wrap className="settings-actions">
          {dirty && (
            <Tag color="warning" data-testid="settings-unsaved">
              {t('settings:unsaved')}
            </Tag>
          )}
          <Popconfirm
            title={t('settings:homepage.templateConfirm')}
            okText={t('settings:homepage.useTemplate')}
            cancelText={t('common:cancel')}
            onConfirm={applyTemplate}
          >
            <Button data-testid="homepage-template">{t('settings:homepage.useTemplate')}</Button>
          </Popconfirm>
          <Button
            onClick={() => {
              form.resetFields();
              setDirty(false);
            }}
            disabled={!dirty || save.isPending}
            data-testid="settings-reset-homepage"
          >
            {t('settings:reset')}
          </Button>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="settings-save-homepage">
            {t('settings:save')}
          </Button>
        </Flex>
      )}
    </Form>
  );
}
