import type { UserRow } from '../../db/types.js';
import type { KeyLimit } from './api-accounting.js';

/** The key a request came with, as `/v1` reads it (the api_keys row's fields it needs). */
export interface V1Key extends KeyLimit {
  user_id: number;
}

export interface V1Principal {
  key: V1Key;
  user: UserRow;
}

/**
 * How `/v1` recognises a personal API key, supplied by the keys area at composition
 * (this area does not import it, so that it may read a key's spend from here). A refusal
 * is an error with `status` (401, 403 or 429) and an OpenAI `code`.
 */
export interface V1Gate {
  authenticate(authorization: string | undefined, ip: string): Promise<V1Principal>;
  allowsModel(key: V1Key, modelName: string): boolean;
}
