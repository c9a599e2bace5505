import type { AdminModule, CreateModuleBody, ModuleAuthMode } from '@aiplatform/contracts';
import { type GroupFormValues, groupFormValuesOf, groupIdsOf } from '../catalog/catalog-groups';

export interface ModuleFormValues extends GroupFormValues {
  name: string;
  display_name: string;
  description: string;
  /** Empty: the letter icon of the module's name. */
  menu_icon: string;
  module_url: string;
  open_mode: AdminModule['open_mode'];
  auth_mode: ModuleAuthMode;
  health_check_url: string;
  sort_order: number;
  is_active: boolean;
}

export function moduleFormValuesOf(module: AdminModule | null, sortOrder: number): ModuleFormValues {
  if (!module)
    return {
      name: '',
      display_name: '',
      description: '',
      menu_icon: '',
      module_url: '',
      open_mode: 'iframe',
      auth_mode: 'none',
      health_check_url: '',
      sort_order: sortOrder,
      is_active: true,
      ...groupFormValuesOf(null),
    };
  return {
    name: module.name,
    display_name: module.display_name,
    description: module.description,
    menu_icon: module.menu_icon,
    module_url: module.module_url,
    open_mode: module.open_mode,
    auth_mode: module.auth_mode,
    health_check_url: module.health_check_url ?? '',
    sort_order: module.sort_order,
    is_active: module.is_active,
    ...groupFormValuesOf(module),
  };
}

/** The create or update body: trimmed text, no health check for an empty address, [] for every group. */
export function moduleBodyOf(values: ModuleFormValues): CreateModuleBody {
  return {
    name: values.name.trim(),
    display_name: values.display_name.trim(),
    description: values.description.trim(),
    menu_icon: values.menu_icon,
    module_url: values.module_url.trim(),
    open_mode: values.open_mode,
    auth_mode: values.auth_mode,
    health_check_url: values.health_check_url.trim() || null,
    sort_order: values.sort_order,
    is_active: values.is_active,
    group_ids: groupIdsOf(values),
  };
}

/** Module ids as the route /module/{name} takes them. */
export const MODULE_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
