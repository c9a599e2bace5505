import type { QueryKey } from '@tanstack/react-query';
import { Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAdminMutation } from '../shared/use-admin-mutation';

/** What a model or module is, as its on/off switch needs it. */
export interface CatalogItemLike {
  id: number;
  display_name: string;
  is_active: boolean;
}

/** Translation keys of a kind's switch; each takes the item's `name`. */
export interface ActiveSwitchTexts {
  /** The switch's accessible name. */
  label: string;
  enabledDone: string;
  disabledDone: string;
  /** Shown when the server gave no message of its own. */
  failed: string;
}

interface CatalogActiveSwitchProps<T extends CatalogItemLike> {
  item: T;
  /** Switches the item on (true) or off and answers it as saved. */
  toggle: (active: boolean) => Promise<T>;
  invalidates: readonly QueryKey[];
  texts: ActiveSwitchTexts;
  testId: string;
}

/** Offers a model or module, or withdraws it, from the list's own row. */
export function CatalogActiveSwitch<T extends CatalogItemLike>({
  item,
  toggle,
  invalidates,
  texts,
  testId,
}: CatalogActiveSwitchProps<T>) {
  const { t } = useTranslation();
  const mutation = useAdminMutation({
    mutationFn: toggle,
    invalidates,
    successText: (saved) => t(saved.is_active ? texts.enabledDone : texts.disabledDone, { name: saved.display_name }),
    failureKey: texts.failed,
  });
  return (
    <Switch
      size="small"
      checked={item.is_active}
      loading={mutation.isPending}
      onChange={(checked) => mutation.mutate(checked)}
      aria-label={t(texts.label, { name: item.display_name })}
      data-testid={testId}
    />
  );
}
