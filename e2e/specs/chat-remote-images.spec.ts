import net from 'node:net';
import { expect, test } from '@playwright/test';
import { ChatApi, messages, openChat, TALL_DESKTOP, typeAndSend } from '../support/chat';
import { DEFAULT_MODEL } from '../support/models';
import { registerViaApi, uniqueToken } from '../support/users';

/** A port nothing listens on: a request there would only show up in the page's requests. */
async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test.describe('chat: images from other sites', () => {
  test.use({ viewport: TALL_DESKTOP });

  test('an image in an answer pointing elsewhere is shown as a link and never requested', async ({ page, request }) => {
    const user = await registerViaApi(request, { prefix: 'cremote' });
    const api = await ChatApi.login(request, user);
    const conversation = await api.createConversation({ model_name: DEFAULT_MODEL.name, title: 'Remote image' });
    const secret = `SECRET${uniqueToken()}`;
    const remote = `http://127.0.0.1:${await unusedPort()}/p.png?d=${secret}`;
    const requested: string[] = [];
    page.on('request', (req) => requested.push(req.url()));

    await openChat(page, user, conversation.id);
    const site = new URL(page.url()).origin;
    // The fake model echoes the question, so its answer carries the image markdown.
    await typeAndSend(page, `Show this: ![x](${remote})`);

    const answer = messages(page, 'assistant');
    await expect(answer).toContainText(`Echo: Show this:`);
    const check = async () => {
      const link = answer.getByTestId('remote-image-link');
      await expect(link).toHaveText('x');
      await expect(link).toHaveAttribute('href', remote);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
      await expect(answer.locator('img')).toHaveCount(0);
    };
    await check();
    // Once stored, the answer is drawn again from the server's copy.
    await page.reload();
    await check();

    const elsewhere = requested.filter((url) => /^https?:/.test(url) && new URL(url).origin !== site);
    expect(elsewhere).toEqual([]);
    expect(requested.filter((url) => url.includes(secret))).toEqual([]);
  });
});
