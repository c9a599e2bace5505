import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { fetchUserModules } from '../../api/modules';
import { queryKeys } from '../../api/query-keys';
import { PreparingResult } from '../../components/common/PreparingResult';

/** An external module opened inside the app; embedding is not available yet. */
export default function ModulePage() {
  const { t } = useTranslation();
  const { moduleName = '' } = useParams();
  const { data: modules = [] } = useQuery({ queryKey: queryKeys.userModules, queryFn: fetchUserModules });
  const name = modules.find((m) => m.name === moduleName)?.display_name ?? moduleName;
  return <PreparingResult title={t('pages:module.title', { name })} />;
}
