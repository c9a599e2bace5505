import type { PromptTemplate } from '@aiplatform/contracts';
import { Button, Drawer, Empty, List, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { formatDateTime } from '../../components/common/format';
import { reportError } from '../../components/common/report-error';
import { usePromptChanges, usePromptVersions } from '../../components/prompts/use-prompts';
import { useIsMobile } from '../../components/layout/use-is-mobile';

/** A template's earlier versions, newest first; restoring one saves its text as a new version. */
export function PromptVersionsDrawer({ prompt, onClose }: { prompt: PromptTemplate | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const isMobile = useIsMobile();
  const versions = usePromptVersions(prompt?.id ?? null);
  const { update } = usePromptChanges();

  const restore = async (title: string, content: string) => {
    if (!prompt) return;
    try {
      await update.mutateAsync({ id: prompt.id, body: { title, content } });
      toast('success', t('chat:prompts.restored'));
    } catch (error) {
      reportError(error, 'chat:prompts.saveFailed');
    }
  };

  return (
    <Drawer
      open={prompt !== null}
      onClose={onClose}
      title={prompt ? t('chat:prompts.versionsOf', { title: prompt.title }) : ''}
      width={isMobile ? '100%' : 520}
      destroyOnHidden
    >
      {versions.isPending ? (
        <Spin />
      ) : (
        <List
          dataSource={versions.data ?? []}
          locale={{ emptyText: <Empty description={t('chat:prompts.noVersions')} /> }}
          renderItem={(v) => (
            <List.Item
              data-testid="prompt-version"
              actions={
                prompt?.abilities.update
                  ? [
                      <Button key="restore" size="small" onClick={() => void restore(v.title, v.content)}>
                        {t('chat:prompts.restore')}
                      </Button>,
                    ]
                  : []
              }
            >
              <List.Item.Meta
                title={`${t('chat:prompts.versionN', { n: v.version })} · ${v.title}`}
                description={t('chat:prompts.editedBy', {
                  who: v.edited_by ?? t('chat:prompts.someone'),
                  when: formatDateTime(v.edited_at, i18n.language),
                })}
              />
              <Typography.Paragraph className="prompt-version-content">{v.content}</Typography.Paragraph>
            </List.Item>
          )}
        />
      )}
    </Drawer>
  );
}
