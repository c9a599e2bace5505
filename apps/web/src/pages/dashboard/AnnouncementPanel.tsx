import type { Announcement, AnnouncementBody } from '@aiplatform/contracts';
import { EditOutlined, NotificationOutlined, TeamOutlined } from '@ant-design/icons';
import { type UseQueryResult, useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { queryKeys } from '../../api/query-keys';
import { visibleContent } from '../../api/use-announcements';
import { MarkdownContent } from '../../components/chat/MarkdownContent';
import { formatDateTime } from '../../components/common/format';
import { reportError } from '../../components/common/report-error';
import { AnnouncementEditor } from './AnnouncementEditor';
import { type AnnouncementStatus, announcementStatus } from './announcement-status';

type Kind = 'system' | 'group';

const TEXT = {
  system: {
    title: 'dashboard:announcement.system',
    saved: 'dashboard:announcement.savedSystem',
    failed: 'dashboard:announcement.saveFailedSystem',
  },
  group: {
    title: 'dashboard:announcement.group',
    saved: 'dashboard:announcement.savedGroup',
    failed: 'dashboard:announcement.saveFailedGroup',
  },
} as const;

const STATUS: Record<AnnouncementStatus, { key: string; color: string }> = {
  visible: { key: 'dashboard:announcement.status.visible', color: 'success' },
  off: { key: 'dashboard:announcement.status.off', color: 'default' },
  empty: { key: 'dashboard:announcement.status.empty', color: 'default' },
  scheduled: { key: 'dashboard:announcement.status.scheduled', color: 'processing' },
  ended: { key: 'dashboard:announcement.status.ended', color: 'warning' },
};

interface AnnouncementPanelProps {
  kind: Kind;
  query: UseQueryResult<Announcement | null>;
  /** Shown beside the title, e.g. the group's name. */
  subtitle?: string | null;
  /** Present when the signed-in user may change this announcement. */
  save?: (body: AnnouncementBody) => Promise<Announcement>;
}

/**
 * One announcement on the dashboard. Readers see it only while it is visible; its
 * editors always see it, with its state, and can change it in place.
 */
export function AnnouncementPanel({ kind, query, subtitle, save }: AnnouncementPanelProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const testId = `announcement-${kind}`;
  const mutation = useMutation({
    mutationFn: (body: AnnouncementBody) => (save ? save(body) : Promise.reject(new Error('read-only'))),
    onSuccess: async () => {
      toast('success', t(TEXT[kind].saved));
      setEditing(false);
      await queryClient.invalidateQueries({ queryKey: queryKeys.announcements });
    },
    onError: (error) => reportError(error, TEXT[kind].failed),
  });

  const announcement = query.data ?? null;
  const content = visibleContent(announcement);
  // A reader has nothing to see: no card at all rather than an empty one.
  if (!save && query.isSuccess && !content) return null;

  const title = (
    <Flex gap={8} align="center" wrap>
      {kind === 'system' ? <NotificationOutlined /> : <TeamOutlined />}
      <span>{t(TEXT[kind].title)}</span>
      {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
    </Flex>
  );
  const status = save && announcement ? announcementStatus(announcement) : null;
  const extra =
    save && announcement && !editing ? (
      <Flex gap={8} align="center">
        {status && (
          <Tag color={STATUS[status].color} data-testid={`${testId}-status`}>
            {t(STATUS[status].key)}
          </Tag>
        )}
        <Button
          size="small"
          icon={<EditOutlined />}
          onClick={() => setEditing(true)}
          aria-label={t(kind === 'system' ? 'dashboard:announcement.editSystem' : 'dashboard:announcement.editGroup')}
          data-testid={`${testId}-edit`}
        >
          {t('dashboard:announcement.edit')}
        </Button>
      </Flex>
    ) : null;

  let body;
  if (query.isLoading) body = <Skeleton active title={false} paragraph={{ rows: 2 }} />;
  else if (query.isError)
    body = (
      <Alert
        type="error"
        showIcon
        title={t('dashboard:announcement.loadFailed')}
        action={
          <Button size="small" onClick={() => void query.refetch()} data-testid={`${testId}-retry`}>
            {t('common:retry')}
          </Button>
        }
      />
    );
  else if (editing && announcement)
    body = (
      <AnnouncementEditor
        announcement={announcement}
        saving={mutation.isPending}
        onSave={(next) => mutation.mutate(next)}
        onCancel={() => setEditing(false)}
        testId={testId}
      />
    );
  else if (announcement?.content.trim())
    body = (
      <>
        <div className="announcement-body" data-testid={`${testId}-content`}>
          <MarkdownContent text={announcement.content} />
        </div>
        <AnnouncementFooter announcement={announcement} language={i18n.language} />
      </>
    );
  else
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('dashboard:announcement.empty')}
        data-testid={`${testId}-empty`}
      />
    );

  return (
    <Card title={title} extra={extra} className="announcement-card" data-testid={testId}>
      {body}
    </Card>
  );
}

/** When it was written and, if scheduled, when it shows. */
function AnnouncementFooter({ announcement, language }: { announcement: Announcement; language: string }) {
  const { t } = useTranslation();
  const parts: string[] = [];
  if (announcement.starts_at)
    parts.push(t('dashboard:announcement.from', { time: formatDateTime(announcement.starts_at, language) }));
  if (announcement.ends_at)
    parts.push(t('dashboard:announcement.until', { time: formatDateTime(announcement.ends_at, language) }));
  if (announcement.updated_at)
    parts.push(t('dashboard:announcement.updatedAt', { time: formatDateTime(announcement.updated_at, language) }));
  if (parts.length === 0) return null;
  return (
    <Typography.Text type="secondary" className="announcement-footer">
      {parts.join(' · ')}
    </Typography.Text>
  );
}
