import { type GroupFormValues, groupFormValuesOf, groupIdsOf } from '../catalog/catalog-groups';
import {
  type AdminModel,
  type AiProvider,
  type CreateModelBody,
  DOCUMENT_LIMITS,
  type DiscoverModelsBody,
  LIMITS,
  type ModelKind,
  sendsKeyElsewhere,
} from '@aiplatform/contracts';

export interface ModelFormValues extends GroupFormValues {
  name: string;
  display_name: string;
  provider: AiProvider;
  api_endpoint: string;
  /** Typed here only; the stored key never comes back from the server. */
  api_key: string;
  credits_per_chat: number;
  /** `embedding` models index documents and are not offered in the chat. */
  kind: ModelKind;
  /** Tokens the model reads at once: decides whether documents go whole or by passages. */
  context_window: number;
  credits_per_1k_document_tokens: number;
  stream_enabled: boolean;
  image_upload_enabled: boolean;
  is_active: boolean;
  sort_order: number;
}

export function modelFormValuesOf(model: AdminModel | null, sortOrder: number): ModelFormValues {
  if (!model)
    return {
      name: '',
      display_name: '',
      provider: 'openai_compatible',
      api_endpoint: '',
      api_key: '',
      credits_per_chat: LIMITS.defaultCreditsPerChat,
      kind: 'chat',
      context_window: DOCUMENT_LIMITS.contextWindowDefault,
      credits_per_1k_document_tokens: 0,
      stream_enabled: true,
      image_upload_enabled: false,
      is_active: true,
      sort_order: sortOrder,
      ...groupFormValuesOf(null),
    };
  return {
    name: model.name,
    display_name: model.display_name,
    provider: model.provider,
    api_endpoint: model.api_endpoint ?? '',
    api_key: '',
    credits_per_chat: model.credits_per_chat,
    kind: model.kind,
    context_window: model.context_window,
    credits_per_1k_document_tokens: model.credits_per_1k_document_tokens,
    stream_enabled: model.stream_enabled,
    image_upload_enabled: model.image_upload_enabled,
    is_active: model.is_active,
    sort_order: model.sort_order,
    ...groupFormValuesOf(model),
  };
}

type Reach = Pick<ModelFormValues, 'provider' | 'api_endpoint'>;
type StoredReach = Pick<AdminModel, 'provider' | 'api_endpoint' | 'api_key_set'>;

/**
 * Whether the edited provider or address would send an existing model's stored key to
 * another server (another scheme, host or port, the provider's default address counting
 * as its own). The server then drops the stored key unless a new one comes with the
 * change, so the form asks for it.
 */
export function keyNeededAgain(model: StoredReach | null, values: Reach): boolean {
  if (!model?.api_key_set) return false;
  return sendsKeyElsewhere(model, { provider: values.provider, api_endpoint: values.api_endpoint.trim() || null });
}

/**
 * The key part of a body: a typed key replaces the stored one, "remove" sends null, and
 * an empty field leaves the stored key alone (the field is absent).
 */
export function apiKeyPart(typed: string | undefined, removeKey: boolean): { api_key?: string | null } {
  if (removeKey) return { api_key: null };
  const key = typed?.trim() ?? '';
  return key ? { api_key: key } : {};
}

/** The create or update body of the form. */
export function modelBodyOf(values: ModelFormValues, removeKey: boolean): CreateModelBody {
  const name = values.name.trim();
  return {
    name,
    display_name: values.display_name.trim() || name,
    provider: values.provider,
    api_endpoint: values.api_endpoint.trim() || null,
    ...apiKeyPart(values.api_key, removeKey),
    credits_per_chat: values.credits_per_chat,
    kind: values.kind,
    context_window: values.context_window,
    credits_per_1k_document_tokens: values.credits_per_1k_document_tokens,
    stream_enabled: values.stream_enabled,
    image_upload_enabled: values.image_upload_enabled,
    is_active: values.is_active,
    sort_order: values.sort_order,
    group_ids: groupIdsOf(values),
  };
}

type DiscoverInput = Pick<ModelFormValues, 'provider' | 'api_endpoint' | 'api_key'>;

/**
 * What to ask the provider's model list with: the form's address and key, or, when an
 * existing model keeps its stored key (none typed, none removed, still the same server),
 * the model itself.
 */
export function discoverBodyOf(
  values: DiscoverInput,
  model: (StoredReach & Pick<AdminModel, 'id'>) | null,
  removeKey: boolean,
): DiscoverModelsBody {
  const typedKey = values.api_key.trim();
  if (model?.api_key_set && !typedKey && !removeKey && !keyNeededAgain(model, values)) return { model_id: model.id };
  const endpoint = values.api_endpoint.trim();
  return {
    provider: values.provider,
    ...(endpoint ? { api_endpoint: endpoint } : {}),
    ...(typedKey ? { api_key: typedKey } : {}),
  };
}

/**
 * Whether models found by discovery can be created with the same key: not when the list
 * was read with a stored key the browser never sees.
 */
export function canCreateDiscovered(body: DiscoverModelsBody): boolean {
  return !('model_id' in body);
}

/** One create body per discovered id, with the form's provider, address, key and settings. */
export function discoveredModelBodies(
  ids: readonly string[],
  values: ModelFormValues,
  firstSortOrder: number,
): CreateModelBody[] {
  const shared = modelBodyOf(values, false);
  return ids.map((id, index) => ({
    ...shared,
    name: id,
    display_name: id,
    sort_order: Math.min(100_000, firstSortOrder + index * 10),
  }));
}
