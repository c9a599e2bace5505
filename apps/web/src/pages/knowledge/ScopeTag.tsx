import type { KnowledgeBase } from '@aiplatform/contracts';
import { TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { SCOPE_LABELS } from './knowledge-scope';

/** Whose a knowledge base is: the person's own, or their group's. */
export function ScopeTag({ kb }: { kb: Pick<KnowledgeBase, 'scope'> }) {
  const { t } = useTranslation();
  return (
    <Tag
      icon={kb.scope === 'group' ? <TeamOutlined /> : <UserOutlined />}
      color={kb.scope === 'group' ? 'blue' : undefined}
      data-testid="kb-scope-tag"
    >
      {t(SCOPE_LABELS[kb.scope])}
    </Tag>
  );
}
