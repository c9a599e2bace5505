import { expect, test } from '@playwright/test';
import { AdminApi, LANGUAGES, type Language, newContextIn, signInAsSuperAdmin } from '../support/admin';
import { rememberHomepage, seriousViolations } from '../support/site-settings';
import { toast } from '../support/ui';
import { uniqueToken } from '../support/users';

// The homepage is what every visitor sees at /: these run in the 'settings' project
// (after every other spec, one at a time) and put the homepage back.
test.describe.configure({ mode: 'serial' });

const TEXT: Record<Language, { saved: string; login: string; register: string }> = {
  'zh-CN': { saved: '自定义首页已保存', login: '登录', register: '立即注册' },
  'en-US': { saved: 'Custom homepage saved', login: 'Log in', register: 'Register' },
};

for (const language of LANGUAGES) {
  const T = TEXT[language];

  test.describe(`custom homepage (${language})`, () => {
    test.use({ locale: language });

    test('switched on, visitors at / see it framed below the ways in; switched off, / is the login page', async ({
      page,
      browser,
      request,
    }) => {
      test.slow();
      const restore = await rememberHomepage(await AdminApi.superAdmin(request));
      const heading = `Hello ${uniqueToken()}`;
      const visitor = await newContextIn(browser, language);
      try {
        await signInAsSuperAdmin(page, null);
        await page.goto('/admin/settings?tab=homepage');
        await page
          .getByTestId('homepage-html')
          .fill(
            `<h1 style="color: #0958d9; position: fixed">${heading}</h1><p>Welcome.</p>` +
              `<p><a href="/login">${T.login}</a> <a href="https://example.com/docs">docs</a></p>` +
              `<script>document.title = 'hacked'</script>`,
          );
        // The preview shows the page without running it.
        const preview = page.frameLocator('[data-testid="homepage-preview"]');
        await expect(preview.getByRole('heading', { name: heading })).toBeVisible();
        await expect(page.getByTestId('homepage-preview')).toHaveAttribute('sandbox', '');
        await page.getByTestId('homepage-enabled').click();
        await page.getByTestId('settings-save-homepage').click();
        await expect(toast(page, T.saved)).toBeVisible();
        // What the server kept has no script and no positioning, but keeps the colour.
        await expect(page.getByTestId('homepage-html')).not.toHaveValue(/script|position/);
        await expect(page.getByTestId('homepage-html')).toHaveValue(/style="color:#0958d9"/);

        const guest = await visitor.newPage();
        await guest.goto('/');
        await expect(guest).toHaveURL(/\/$/);
        await expect(guest.getByTestId('homepage-login')).toHaveText(T.login);
        await expect(guest.getByTestId('homepage-register')).toHaveText(T.register);
        const frame = guest.getByTestId('homepage-frame');
        await expect(frame).toHaveAttribute('sandbox', /allow-top-navigation-by-user-activation/);
        await expect(frame).not.toHaveAttribute('sandbox', /allow-scripts|allow-same-origin/);
        await expect(frame).toHaveAttribute('src', '/api/public/homepage.html');
        const framed = guest.frameLocator('[data-testid="homepage-frame"]');
        await expect(framed.getByRole('heading', { name: heading })).toBeVisible();
        await expect(framed.getByRole('link', { name: 'docs' })).toHaveAttribute('target', '_blank');
        expect(await seriousViolations(guest, { signedIn: false })).toEqual([]);

        // A link to this site moves the whole window, not the frame.
        await framed.getByRole('link', { name: T.login }).click();
        await expect(guest).toHaveURL(/\/login$/);
        await expect(guest.getByTestId('login-account')).toBeVisible();
        await guest.goto('/');

        // At phone width the bar still offers both ways in.
        await guest.setViewportSize({ width: 375, height: 740 });
        await expect(guest.getByTestId('homepage-login')).toBeInViewport();
        await expect(guest.getByTestId('homepage-register')).toBeInViewport();
        await guest.getByTestId('homepage-login').click();
        await expect(guest).toHaveURL(/\/login$/);

        // Switched off again: / is the login page. The first save's notice may still be
        // on screen (3 s), so it must be gone before the second one is looked for.
        await expect(toast(page, T.saved)).toHaveCount(0);
        await page.getByTestId('homepage-enabled').click();
        await page.getByTestId('settings-save-homepage').click();
        await expect(toast(page, T.saved)).toBeVisible();
        await guest.goto('/');
        await expect(guest).toHaveURL(/\/login$/);
        await expect(guest.getByTestId('homepage-frame')).toHaveCount(0);
      } finally {
        await visitor.close();
        await restore();
      }
    });
  });
}
