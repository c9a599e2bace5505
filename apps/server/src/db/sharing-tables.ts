import type { Generated, Selectable } from 'kysely';

/** A share link: a snapshot of a conversation's branch, read through a random token (only its hash is kept). */
export interface ShareLinksTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  /** The conversation it was taken from; it may be gone since. */
  conversation_id: string | null;
  title: string;
  model_name: string;
  /** The snapshot's messages as JSON (`ShareSnapshot`). */
  snapshot: string;
  is_public: Generated<number>;
  expires_at: string | null;
  revoked_at: Generated<string | null>;
  visits: Generated<number>;
  created_at: string;
}

/** These tables, as `Database` in types.ts gathers them. */
export interface SharingTables {
  share_links: ShareLinksTable;
}

export type ShareLinkRow = Selectable<ShareLinksTable>;
