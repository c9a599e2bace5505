import type { PromptTemplate } from '@aiplatform/contracts';
import { GlobalOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const ICONS = { personal: <UserOutlined />, group: <TeamOutlined />, system: <GlobalOutlined /> };
const COLORS = { personal: undefined, group: 'blue', system: 'purple' };

/** Whose a template is: the person's own, their group's (named), or the system's. */
export function PromptScopeTag({ prompt }: { prompt: Pick<PromptTemplate, 'scope' | 'group_name'> }) {
  const { t } = useTranslation();
  const label = t(`chat:prompts.scope.${prompt.scope}`);
  return (
    <Tag icon={ICONS[prompt.scope]} color={COLORS[prompt.scope]} data-testid="prompt-scope-tag">
      {prompt.scope === 'group' && prompt.group_name ? `${label} · ${prompt.group_name}` : label}
    </Tag>
  );
}
