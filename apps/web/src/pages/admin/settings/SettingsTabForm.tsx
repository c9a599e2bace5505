import type { AdminSettings } from '@aiplatform/contracts';
import { Button, Flex, Form, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/api-error';
import { toast } from '../../../api/notify';
import { reportError } from '../../../components/common/report-error';
import { translateMessageKey } from '../../../i18n';
import {
  type FieldError,
  type FieldsTab,
  type SettingsFormValues,
  bodyOf,
  clientErrors,
  formValuesOf,
} from './settings-form';
import { serverErrors } from './settings-form';
import { useReportUnsaved } from './unsaved-edits';
import { useSaveSettings } from './use-save-settings';

interface SettingsTabFormProps {
  tab: FieldsTab;
  settings: AdminSettings;
  readOnly: boolean;
  children: ReactNode;
}

/** The same value at a path of two nested value objects? */
function sameAt(a: SettingsFormValues, b: SettingsFormValues, path: string[]): boolean {
  const read = (values: SettingsFormValues) =>
    path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], values);
  return read(a) === read(b);
}

function TabForm({ tab, settings, readOnly, children }: SettingsTabFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SettingsFormValues>();
  const [dirty, setDirty] = useState(false);
  const save = useSaveSettings();
  const initial = formValuesOf(tab, settings);
  useReportUnsaved(`settings-${tab}`, dirty);

  const showErrors = ({ fields, other }: { fields: FieldError[]; other: string[] }) => {
    form.setFields(fields);
    if (fields[0]) form.scrollToField(fields[0].name, { block: 'center' });
    for (const message of other) toast('error', message);
  };

  const submit = (values: SettingsFormValues) => {
    const body = bodyOf(tab, values, settings);
    const local = clientErrors(tab, body, translateMessageKey);
    if (local.fields.length > 0 || local.other.length > 0) return showErrors(local);
    save.mutate(body, {
      onSuccess: () => setDirty(false),
      onError: (error) => {
        const messages = isApiError(error) && error.status === 400 ? error.validationErrors : [];
        if (messages.length === 0) return reportError(error, 'settings:saveFailed');
        const changed = (path: string[]) => !sameAt(values, initial, path);
        showErrors(serverErrors(tab, messages, changed, translateMessageKey));
      },
    });
  };

  return (
    <Form<SettingsFormValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      disabled={readOnly}
      onValuesChange={() => setDirty(true)}
      onFinish={submit}
      scrollToFirstError
      data-testid={`settings-form-${tab}`}
    >
      {children}
      {!readOnly && (
        <Flex gap={8} justify="end" align="center" wrap className="settings-actions">
          {dirty && (
            <Tag color="warning" data-testid="settings-unsaved">
              {t('settings:unsaved')}
            </Tag>
          )}
          <Button
            onClick={() => {
              form.resetFields();
              setDirty(false);
            }}
            disabled={!dirty || save.isPending}
            data-testid={`settings-reset-${tab}`}
          >
            {t('settings:reset')}
          </Button>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid={`settings-save-${tab}`}>
            {t('settings:save')}
          </Button>
        </Flex>
      )}
    </Form>
  );
}

/**
 * One tab's form: it saves only its own fields, shows every problem on its field, and
 * can drop unsaved edits. It starts afresh when the saved values of its fields change
 * (after its own save, or a reload), not when another tab saves.
 */
export function SettingsTabForm(props: SettingsTabFormProps) {
  const version = JSON.stringify(formValuesOf(props.tab, props.settings));
  return <TabForm key={version} {...props} />;
}
