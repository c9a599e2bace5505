import type { Homepage } from '@aiplatform/contracts';
import { useQuery } from '@tanstack/react-query';
import { Skeleton } from 'antd';
import { call } from '../../../api/call';
import { adminKeys } from '../../../api/query-keys';
import { QueryErrorResult } from '../shared/QueryErrorResult';
import { HomepageEditor } from './HomepageEditor';

/** The custom homepage for visitors: loaded on its own, since it has its own call. */
export function HomepageTab({ readOnly }: { readOnly: boolean }) {
  const query = useQuery({ queryKey: adminKeys.homepage, queryFn: () => call('getHomepage') });
  if (query.isLoading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (query.isError || !query.data) {
    return <QueryErrorResult error={query.error} onRetry={() => void query.refetch()} testId="homepage-error" />;
  }
  const homepage: Homepage = query.data;
  // A saved page (new `updated_at`) starts the editor afresh from what the server kept.
  return <HomepageEditor key={homepage.updated_at ?? 'never'} homepage={homepage} readOnly={readOnly} />;
}
