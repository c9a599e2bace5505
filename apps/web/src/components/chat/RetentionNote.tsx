import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/call';
import { queryKeys } from '../../api/query-keys';

/** How long the user's conversations are kept (their group's days, else the site's); nothing when kept forever. */
export function RetentionNote() {
  const { t } = useTranslation();
  const policy = useQuery({
    queryKey: queryKeys.chatRetention,
    queryFn: () => call('chatRetention'),
    staleTime: 10 * 60_000,
  });
  const days = policy.data?.days;
  if (days === null || days === undefined) return null;
  return (
    <p className="chat-sidebar-retention" data-testid="chat-retention-note">
      {days === 1 ? t('chat:sidebar.retentionOneDay') : t('chat:sidebar.retention', { count: days })}
    </p>
  );
}
