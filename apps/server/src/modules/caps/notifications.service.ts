import type { Language, NotificationList } from '@aiplatform/contracts';
import { type Clock, iso } from '../../lib/runtime/clock.js';
import { AppError } from '../../lib/http/errors.js';
import { translate } from '../../lib/runtime/i18n.js';
import type { NotificationsRepo } from './notifications.repo.js';

/** The bell: a user's notifications, written in the reader's language when read. */
export class NotificationsService {
  constructor(
    private readonly repo: NotificationsRepo,
    private readonly clock: Clock,
  ) {}

  /** GET /notifications: the newest, and how many are unread. */
  async list(userId: number, lang: Language): Promise<NotificationList> {
    const [rows, unread] = await Promise.all([this.repo.newest(userId), this.repo.unread(userId)]);
    return {
      unread,
      items: rows.map((r) => {
        const data = JSON.parse(r.data) as Record<string, string | number | null>;
        const params: Record<string, string | number> = {};
        for (const [k, v] of Object.entries(data)) params[k] = v ?? '';
        params.model = data.model_name ? ` (${data.model_name})` : '';
        params.period_key = `server.caps.period.${String(data.period)}`;
        return {
          id: r.id,
          kind: r.kind,
          title: translate(lang, `server.notifications.${r.kind}.title`, params),
          body: translate(lang, `server.notifications.${r.kind}.body`, params),
          data,
          created_at: r.created_at,
          read_at: r.read_at,
        };
      }),
    };
  }

  /** POST /notifications/:id/read: 404 for another user's. */
  async read(userId: number, id: number): Promise<{ unread: number }> {
    if (!(await this.repo.markRead(userId, id, iso(this.clock.now())))) throw new AppError('NOT_FOUND');
    return { unread: await this.repo.unread(userId) };
  }
}
