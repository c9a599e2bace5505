import { AppstoreOutlined } from '@ant-design/icons';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { moduleIcon } from '../../../components/layout/module-icons';
import { MODULE_ICON_NAMES } from './module-icon-options';

describe('MODULE_ICON_NAMES', () => {
  it('offers only icons the side menu can draw', () => {
    for (const name of MODULE_ICON_NAMES.filter((n) => n !== 'AppstoreOutlined')) {
      expect((moduleIcon(name) as ReactElement).type, name).not.toBe(AppstoreOutlined);
    }
  });

  it('matches the names the menu accepts (letters only)', () => {
    for (const name of MODULE_ICON_NAMES) expect(name).toMatch(/^[A-Za-z]+$/);
  });
});
