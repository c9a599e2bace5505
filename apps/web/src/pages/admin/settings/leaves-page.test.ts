import { describe, expect, it } from 'vitest';
import { leavesPage } from './leaves-page';

describe('leavesPage', () => {
  it('is false for another tab of the settings and true for another page', () => {
    expect(leavesPage({ pathname: '/admin/settings' }, { pathname: '/admin/settings' })).toBe(false);
    expect(leavesPage({ pathname: '/admin/settings' }, { pathname: '/admin/settings/' })).toBe(false);
    expect(leavesPage({ pathname: '/admin/settings' }, { pathname: '/dashboard' })).toBe(true);
    expect(leavesPage({ pathname: '/admin/settings' }, { pathname: '/login' })).toBe(true);
  });
});
