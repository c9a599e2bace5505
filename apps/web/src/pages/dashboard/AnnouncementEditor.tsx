import type { Announcement, AnnouncementBody } from '@aiplatform/contracts';
import { AnnouncementBodySchema } from '@aiplatform/contracts';
import { Button, Col, DatePicker, Empty, Flex, Form, Input, Row, Segmented, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MarkdownContent } from '../../components/chat/MarkdownContent';
import { translateMessageKey } from '../../i18n';
import { bodyOf, draftOf } from './announcement-status';

interface EditorValues {
  content: string;
  enabled: boolean;
  startsAt: Dayjs | null;
  endsAt: Dayjs | null;
}

/** Form fields of the body's schema paths, for showing its messages on them. */
const FIELD_OF: Record<string, keyof EditorValues> = { content: 'content', starts_at: 'startsAt', ends_at: 'endsAt' };

interface AnnouncementEditorProps {
  announcement: Announcement;
  saving: boolean;
  onSave: (body: AnnouncementBody) => void;
  onCancel: () => void;
  testId: string;
}

/**
 * Writing an announcement: markdown with a preview (rendered like the readers see it, raw
 * HTML shown as text), a switch and an optional schedule.
 */
export function AnnouncementEditor({ announcement, saving, onSave, onCancel, testId }: AnnouncementEditorProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditorValues>();
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const content = Form.useWatch('content', form) ?? announcement.content;
  const draft = draftOf(announcement);

  const submit = (values: EditorValues) => {
    const body = bodyOf({
      content: values.content ?? '',
      enabled: values.enabled,
      startsAt: values.startsAt ? values.startsAt.valueOf() : null,
      endsAt: values.endsAt ? values.endsAt.valueOf() : null,
    });
    // The server's own schema, so a wrong schedule is named on its field before sending.
    const parsed = AnnouncementBodySchema.safeParse(body);
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((issue) => ({
          name: FIELD_OF[String(issue.path[0])] ?? 'content',
          errors: [translateMessageKey(issue.message)],
        })),
      );
      setMode('write');
      return;
    }
    onSave(body);
  };

  return (
    <Form<EditorValues>
      form={form}
      layout="vertical"
      initialValues={{
        content: draft.content,
        enabled: draft.enabled,
        startsAt: draft.startsAt === null ? null : dayjs(draft.startsAt),
        endsAt: draft.endsAt === null ? null : dayjs(draft.endsAt),
      }}
      onFinish={submit}
      data-testid={`${testId}-editor`}
    >
      <Segmented<'write' | 'preview'>
        value={mode}
        onChange={(value) => setMode(value)}
        options={[
          { value: 'write', label: t('dashboard:announcement.write') },
          { value: 'preview', label: t('dashboard:announcement.preview') },
        ]}
        style={{ marginBottom: 12 }}
        data-testid={`${testId}-mode`}
      />
      {/* Both stay mounted: the text area keeps its value and cursor while the preview shows. */}
      <div hidden={mode !== 'write'}>
        <Form.Item
          name="content"
          label={t('dashboard:announcement.content')}
          extra={t('dashboard:announcement.contentHint')}
        >
          <Input.TextArea
            autoSize={{ minRows: 6, maxRows: 15 }}
            maxLength={20_000}
            showCount
            data-testid={`${testId}-content`}
          />
        </Form.Item>
      </div>
      {mode === 'preview' && (
        <div className="announcement-preview" data-testid={`${testId}-preview`}>
          {content.trim() ? (
            <MarkdownContent text={content} />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard:announcement.previewEmpty')} />
          )}
        </div>
      )}
      <Row gutter={16}>
        <Col xs={24} md={6}>
          <Form.Item name="enabled" label={t('dashboard:announcement.enabled')} valuePropName="checked">
            <Switch data-testid={`${testId}-enabled`} />
          </Form.Item>
        </Col>
        <Col xs={24} md={9}>
          <Form.Item name="startsAt" label={t('dashboard:announcement.startsAt')}>
            <DatePicker
              showTime
              allowClear
              placeholder={t('dashboard:announcement.noLimit')}
              style={{ width: '100%' }}
              data-testid={`${testId}-starts-at`}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={9}>
          <Form.Item name="endsAt" label={t('dashboard:announcement.endsAt')}>
            <DatePicker
              showTime
              allowClear
              placeholder={t('dashboard:announcement.noLimit')}
              style={{ width: '100%' }}
              data-testid={`${testId}-ends-at`}
            />
          </Form.Item>
        </Col>
      </Row>
      <Flex gap={8} justify="end">
        <Button onClick={onCancel} disabled={saving} data-testid={`${testId}-cancel`}>
          {t('common:cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={saving} data-testid={`${testId}-save`}>
          {t('dashboard:announcement.save')}
        </Button>
      </Flex>
    </Form>
  );
}
