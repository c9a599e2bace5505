import type { ChatModel, Conversation } from '@aiplatform/contracts';

/*
 * What the chat screen picks when the user has not chosen: the conversation `/chat`
 * opens, and the model a new conversation starts with.
 */

/**
 * The conversation with the latest activity (`updated_at`), or null for an empty list.
 * The list comes ordered by priority first, so its first item is not necessarily the last
 * one used; on a tie the earlier item in that order wins.
 */
export function latestConversation(conversations: readonly Conversation[]): Conversation | null {
  let latest: Conversation | null = null;
  let latestTime = -Infinity;
  for (const conversation of conversations) {
    const time = Date.parse(conversation.updated_at);
    if (time > latestTime || latest === null) {
      latest = conversation;
      latestTime = Number.isNaN(time) ? -Infinity : time;
    }
  }
  return latest;
}

/**
 * The model a new conversation starts with: the site's default model when the user may
 * use it, else the first of the user's models (the server lists them in display order).
 */
export function defaultModel(models: readonly ChatModel[], siteDefault: string): ChatModel | null {
  return models.find((m) => m.name === siteDefault) ?? models[0] ?? null;
}
