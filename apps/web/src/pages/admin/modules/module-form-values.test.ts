import type { AdminModule } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { MODULE_NAME_PATTERN, moduleBodyOf, moduleFormValuesOf } from './module-form-values';

const MODULE: AdminModule = {
  id: 3,
  name: 'wiki',
  display_name: 'Wiki',
  description: '',
  menu_icon: 'BookOutlined',
  module_url: 'https://wiki.example.com',
  open_mode: 'new_tab',
  is_active: true,
  sort_order: 10,
  group_ids: [],
  auth_mode: 'signed_token',
  health_check_url: null,
  health_status: 'unknown',
  health_checked_at: null,
  health_latency_ms: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('moduleBodyOf', () => {
  it('round-trips a module through the form', () => {
    expect(moduleBodyOf(moduleFormValuesOf(MODULE, 0))).toEqual({
      name: 'wiki',
      display_name: 'Wiki',
      description: '',
      menu_icon: 'BookOutlined',
      module_url: 'https://wiki.example.com',
      open_mode: 'new_tab',
      auth_mode: 'signed_token',
      health_check_url: null,
      sort_order: 10,
      is_active: true,
      group_ids: [],
    });
  });

  it('trims text, drops an empty health address and keeps chosen groups', () => {
    const values = {
      ...moduleFormValuesOf(null, 20),
      name: ' crm ',
      display_name: ' CRM ',
      module_url: ' https://crm.example.com ',
      health_check_url: '  ',
      group_scope: 'selected' as const,
      group_ids: [2, 5],
    };
    expect(moduleBodyOf(values)).toMatchObject({
      name: 'crm',
      display_name: 'CRM',
      module_url: 'https://crm.example.com',
      health_check_url: null,
      group_ids: [2, 5],
      sort_order: 20,
    });
  });

  it('sends every group as an empty list', () => {
    const values = { ...moduleFormValuesOf(MODULE, 0), group_scope: 'all' as const, group_ids: [4] };
    expect(moduleBodyOf(values).group_ids).toEqual([]);
  });
});

describe('MODULE_NAME_PATTERN', () => {
  it('takes lower-case ids usable in the module route', () => {
    expect(MODULE_NAME_PATTERN.test('wiki-2_a')).toBe(true);
    expect(MODULE_NAME_PATTERN.test('Wiki')).toBe(false);
    expect(MODULE_NAME_PATTERN.test('-wiki')).toBe(false);
    expect(MODULE_NAME_PATTERN.test('a b')).toBe(false);
  });
});
