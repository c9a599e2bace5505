import type { AiModelRow } from '../../db/types.js';
import type { CallableModel, ModelsService } from '../models/models.service.js';
import type { V1Principal } from './v1-gate.js';
import { V1Error, modelNotAllowed, modelNotFound } from './v1-errors.js';

/**
 * Which models a key reaches: those its owner's group may use (chat and embedding), and of
 * them the key's own list when it has one. A model the owner may not use is unknown (404);
 * one the owner may use but the key may not is refused (403).
 */
export class V1Models {
  constructor(
    private readonly models: ModelsService,
    private readonly allows: (key: V1Principal['key'], modelName: string) => boolean,
  ) {}

  /** `GET /v1/models`: OpenAI's list shape. */
  async list(p: V1Principal) {
    const rows = (await this.models.listForApi(p.user.group_id)).filter((m) => this.allows(p.key, m.name));
    return {
      object: 'list',
      data: rows.map((m) => ({
        id: m.name,
        object: 'model',
        created: Math.floor(new Date(m.created_at).getTime() / 1000),
        owned_by: m.provider,
      })),
    };
  }

  /** The model a request names, of the kind the endpoint serves, ready to call. */
  async pick(p: V1Principal, name: string, kind: 'chat' | 'embedding'): Promise<CallableModel> {
    const row = (await this.models.listForApi(p.user.group_id)).find((m) => m.name === name);
    if (!row) throw modelNotFound(name);
    if (!this.allows(p.key, name)) throw modelNotAllowed(name);
    if (row.kind !== kind) throw wrongKind(row, kind);
    try {
      return this.models.callable(row);
    } catch {
      throw new V1Error(503, 'api_error', 'model_unavailable', 'server.v1.modelUnavailable', { model: name });
    }
  }
}

const wrongKind = (row: AiModelRow, kind: 'chat' | 'embedding') =>
  new V1Error(400, 'invalid_request_error', 'invalid_request_error', 'server.v1.wrongModelKind', {
    model: row.name,
    kind,
  });
