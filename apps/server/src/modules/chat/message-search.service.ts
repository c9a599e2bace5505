import type { MessageSearchResult } from '@aiplatform/contracts';
import type { MessageSearchRepo } from './message-search.repo.js';
import { buildSnippet } from './search-snippet.js';
import { parseQuery } from './search-text.js';

/** Search over the text of the caller's own messages; the snippet and its marks are made here. */
export class MessageSearchService {
  constructor(private readonly repo: MessageSearchRepo) {}

  async search(userId: number, q: string, limit: number): Promise<MessageSearchResult> {
    const query = parseQuery(q);
    const hits = await this.repo.search(userId, query, limit);
    return {
      items: hits.map(({ content, ...hit }) => ({ ...hit, ...buildSnippet(content, query) })),
    };
  }
}
