import { type ChatModel, type CreateConversationBody, LIMITS, type MessageFile } from '@aiplatform/contracts';
import type { ConversationFormValues } from '../../components/chat/ConversationFormFields';

/*
 * A new chat lives only in the browser until its first message is sent: the conversation is
 * created on the server then, with the settings chosen meanwhile, and its first send follows.
 */

/** The settings form before anything was chosen: no model yet means the default one. */
export function blankNewChatSettings(): ConversationFormValues {
  return {
    model_name: '',
    title: '',
    system_prompt: '',
    context_length: LIMITS.contextLengthDefault,
    ai_temperature: undefined,
    priority: 0,
  };
}

/**
 * The model the first message goes to: the one chosen, while it is still offered, else the
 * default one (`startModel`: undefined while the models load, null when there is none).
 */
export function newChatModel(
  models: readonly ChatModel[],
  chosen: string,
  startModel: ChatModel | null | undefined,
): ChatModel | null | undefined {
  return models.find((m) => m.name === chosen) ?? startModel;
}

/** Optional fields are sent only when filled in; the server applies its defaults to the rest. */
export function createBody(values: ConversationFormValues): CreateConversationBody {
  const title = values.title?.trim();
  const systemPrompt = values.system_prompt?.trim();
  return {
    model_name: values.model_name,
    ...(title ? { title } : {}),
    ...(systemPrompt ? { system_prompt: systemPrompt } : {}),
    context_length: values.context_length,
    ...(values.ai_temperature !== undefined ? { ai_temperature: values.ai_temperature } : {}),
    priority: values.priority,
    ...(values.knowledge_base_ids?.length ? { knowledge_base_ids: values.knowledge_base_ids } : {}),
  };
}

/** Attached images stay only while the chosen model accepts them; documents go to any model. */
export function imagesFor(model: ChatModel | null | undefined, images: MessageFile[]): MessageFile[] {
  return model && !model.image_upload_enabled ? images.filter((f) => f.kind === 'document') : images;
}
