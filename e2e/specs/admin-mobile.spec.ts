import { type Locator, type Page, expect, test } from '@playwright/test';
import {
  AdminApi,
  dialog,
  newContextIn,
  openAdminPage,
  searchUsers,
  signInAsSuperAdmin,
  userRow,
} from '../support/admin';
import { seriousViolations } from '../support/site-settings';
import { toast } from '../support/ui';

const PHONE = { width: 375, height: 740 };

/** Whether the element lies within the window's width. */
async function expectWithinWidth(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, 'element has a box').not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width + 0.5);
}

const pageScrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** The boxes from the element up to the page that stick out of the window or clip wider content. */
const tooWideAncestors = (locator: Locator) =>
  locator.evaluate((start) => {
    const found: string[] = [];
    for (let el = start.parentElement; el && el !== document.documentElement; el = el.parentElement) {
      const box = el.getBoundingClientRect();
      const label = `${el.tagName.toLowerCase()}.${Array.from(el.classList).join('.')}`;
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5) found.push(`${label} sticks out`);
      const clipsX = ['hidden', 'clip'].includes(getComputedStyle(el).overflowX);
      if (clipsX && el.scrollWidth > el.clientWidth + 1)
        found.push(`${label} hides ${el.scrollWidth - el.clientWidth}px`);
    }
    return found;
  });

test.describe('admin screens on a phone (375 px)', () => {
  test.use({ viewport: PHONE });

  test('the user list scrolls sideways inside its table and the credit dialog fits the screen', async ({
    page,
    request,
  }) => {
    const superAdmin = await AdminApi.superAdmin(request);
    const user = await superAdmin.createUser({ prefix: 'mob', credits: 100 });

    await signInAsSuperAdmin(page, null);
    await openAdminPage(page, 'users');
    await searchUsers(page, user.username);
    const row = userRow(page, user.id);
    await expect(row).toBeVisible();

    // The page itself does not scroll sideways; the table does, inside its own box on the screen.
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    const table = page.getByTestId('users-table');
    await expectWithinWidth(table);
    const scroller = table.locator('.ant-table-content, .ant-table-body').first();
    await expectWithinWidth(scroller);
    const widths = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(widths.scroll).toBeGreaterThan(widths.client);
    expect(widths.client).toBeLessThanOrEqual(PHONE.width);
    // Nothing between the table and the page is wider than the screen or hides a part of the
    // table by clipping it (an overflowing table under an `overflow: hidden` box would pass the
    // page check above).
    expect(await tooWideAncestors(scroller)).toEqual([]);
    // The columns that say whose row it is are on screen before any sideways scroll.
    await expect(row.getByRole('checkbox')).toBeInViewport();
    const name = row.getByText(user.username, { exact: true });
    await expect(name).toBeInViewport({ ratio: 1 });
    await expectWithinWidth(name);
    await expectWithinWidth(page.getByTestId('user-create-button'));
    await expectWithinWidth(page.getByTestId('user-search'));

    // The row's actions are reached by scrolling the table.
    const creditsButton = page.getByTestId(`user-credits-${user.id}`);
    await creditsButton.scrollIntoViewIfNeeded();
    expect(await scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await expectWithinWidth(creditsButton);
    await creditsButton.click();

    const creditDialog = dialog(page, 'credit-modal');
    await expect(creditDialog).toBeVisible();
    await expectWithinWidth(creditDialog);
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.getByTestId('credit-amount').fill('50');
    await expect(page.getByTestId('credit-preview')).toHaveText('余额 100 → 150');
    await page.getByTestId('credit-reason').fill('Phone top-up');
    const submit = page.getByTestId('credit-submit');
    await submit.scrollIntoViewIfNeeded();
    await expect(submit).toBeInViewport();
    await expectWithinWidth(submit);
    await expectWithinWidth(page.getByTestId('credit-reason'));
    await submit.click();
    await expect(toast(page, `已为 ${user.username} 增加 50 积分，余额 150`)).toBeVisible();
    await expect(creditDialog).toBeHidden();
    expect((await superAdmin.user(user.id)).credits_stats.remaining).toBe(150);
  });

  test('the settings tabs that do not fit are offered in a "more" list that passes axe', async ({ browser }) => {
    // The English tab names are the longer ones: they do not all fit at 375 px.
    const context = await newContextIn(browser, 'en-US');
    const page = await context.newPage();
    await page.setViewportSize(PHONE);
    await signInAsSuperAdmin(page, '/admin/settings');
    await expect(page.getByTestId('settings-tab-basic')).toBeVisible({ timeout: 30_000 });
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    const more = page.locator('[data-testid="settings-tabs"] .ant-tabs-nav-more');
    await expect(more).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    // The list of the tabs that did not fit, open.
    await more.click();
    const overflow = page.locator('.ant-tabs-dropdown:visible');
    await expect(overflow.getByRole('option').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await overflow.getByRole('option').last().click();
    await expect(page).toHaveURL(/tab=homepage/);
    await context.close();
  });
});
