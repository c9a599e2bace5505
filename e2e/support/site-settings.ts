import AxeBuilder from '@axe-core/playwright';
import { type Page, expect } from '@playwright/test';
import type { AdminApi } from './admin.js';

/**
 * Global configuration through the admin API: the settings, the system announcement
 * and the custom homepage. Specs that change them put the old state back with the
 * function each setter returns, since every spec shares one server.
 */

type Section = Record<string, unknown>;
export type SettingsPatch = Record<string, Section>;

async function data<T>(res: Awaited<ReturnType<AdminApi['raw']>>): Promise<T> {
  expect(res.ok(), `${res.url()}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

export async function readSettings(admin: AdminApi): Promise<Record<string, Section>> {
  return data(await admin.raw('GET', '/admin/settings'));
}

/** Changes some settings fields; the returned function sets exactly those fields back. */
export async function patchSettings(admin: AdminApi, patch: SettingsPatch): Promise<() => Promise<void>> {
  const before = await readSettings(admin);
  const previous: SettingsPatch = {};
  for (const [section, fields] of Object.entries(patch)) {
    previous[section] = Object.fromEntries(Object.keys(fields).map((key) => [key, before[section]?.[key]]));
  }
  await data(await admin.raw('PUT', '/admin/settings', patch));
  return async () => {
    await data(await admin.raw('PUT', '/admin/settings', previous));
  };
}

/** Remembers the given settings fields as they are now; the returned function puts them back. */
export async function rememberSettings(
  admin: AdminApi,
  fields: Record<string, readonly string[]>,
): Promise<() => Promise<void>> {
  const before = await readSettings(admin);
  const previous: SettingsPatch = {};
  for (const [section, keys] of Object.entries(fields)) {
    previous[section] = Object.fromEntries(keys.map((key) => [key, before[section]?.[key]]));
  }
  return async () => {
    await data(await admin.raw('PUT', '/admin/settings', previous));
  };
}

interface Announcement {
  content: string;
  enabled: boolean;
  starts_at: string | null;
  ends_at: string | null;
}

/** Remembers the system announcement; the returned function writes it back as it was. */
export async function rememberSystemAnnouncement(admin: AdminApi): Promise<() => Promise<void>> {
  const before = await data<Announcement>(await admin.raw('GET', '/admin/announcement'));
  return async () => {
    await data(
      await admin.raw('PUT', '/admin/announcement', {
        content: before.content,
        enabled: before.enabled,
        starts_at: before.starts_at,
        ends_at: before.ends_at,
      }),
    );
  };
}

/** Remembers the custom homepage; the returned function writes it back as it was. */
export async function rememberHomepage(admin: AdminApi): Promise<() => Promise<void>> {
  const before = await data<{ enabled: boolean; html: string }>(
    await admin.raw('GET', '/admin/settings/custom-homepage'),
  );
  return async () => {
    await data(
      await admin.raw('PUT', '/admin/settings/custom-homepage', { enabled: before.enabled, html: before.html }),
    );
  };
}

/**
 * Serious and critical WCAG 2 A/AA violations, one line each. On signed-in pages the
 * header and sidebar every page shares are left out (see admin-a11y); a visitor page is
 * checked whole.
 */
export async function seriousViolations(page: Page, options: { signedIn?: boolean } = {}): Promise<string[]> {
  await page.mouse.move(0, 0);
  let builder = new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa'])
    // A sandboxed frame runs no script, axe's included: its analysis would wait forever.
    // What it shows is the administrator's own page, not the app.
    .exclude('iframe[sandbox=""]')
    .exclude('[data-testid="homepage-frame"]');
  if (options.signedIn ?? true) builder = builder.exclude('header').exclude('[data-testid="app-sider"]');
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}
