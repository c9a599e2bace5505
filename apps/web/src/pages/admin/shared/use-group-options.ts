import type { Group } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { callPage } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { groupDisplayName } from '../../../components/common/group-name';

/** The largest page the server serves; enough groups for a picker in any realistic setup. */
const GROUP_OPTIONS_LIMIT = 100;
const QUERY = { page: 1, limit: GROUP_OPTIONS_LIMIT } as const;
const NO_GROUPS: Group[] = [];

/** Groups as select options (filters, moves, new users) and as read (their pools); `enabled` avoids the call for those who may not read groups. */
export function useGroupOptions(enabled = true) {
  const query = useQuery({
    queryKey: adminKeys.groupList(QUERY),
    queryFn: () => callPage('listGroups', { query: QUERY }),
    enabled,
    staleTime: 30_000,
  });
  const { t } = useTranslation();
  const options = useMemo(
    () =>
      (query.data?.items ?? []).map((group) => ({
        value: group.id,
        label: groupDisplayName(group.name, t, group.id),
        color: group.color,
      })),
    [query.data, t],
  );
  return { options, groups: query.data?.items ?? NO_GROUPS, loading: query.isLoading };
}
