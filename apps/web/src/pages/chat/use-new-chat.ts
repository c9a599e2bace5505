import type { ChatModel, MessageFile } from '@aiplatform/contracts';
import { useCallback, useMemo, useState } from 'react';
import type { ConversationFormValues } from '../../components/chat/ConversationFormFields';
import { blankNewChatSettings, imagesFor, newChatModel } from './new-chat';

/** What the new chat holds before it exists on the server. */
export interface NewChatState {
  settings: ConversationFormValues;
  input: string;
  images: MessageFile[];
}

const blank = (): NewChatState => ({ settings: blankNewChatSettings(), input: '', images: [] });

/**
 * The new chat (the welcome screen's composer): its text, images and settings, kept while
 * the user looks at other conversations, and emptied once it became a conversation.
 */
export function useNewChat(models: ChatModel[], startModel: ChatModel | null | undefined) {
  const [state, setState] = useState(blank);
  const model = newChatModel(models, state.settings.model_name, startModel);

  const setInput = useCallback((input: string) => setState((s) => ({ ...s, input })), []);
  const setImages = useCallback(
    (change: (images: MessageFile[]) => MessageFile[]) => setState((s) => ({ ...s, images: change(s.images) })),
    [],
  );
  /** A model without image support drops the attached images, as a conversation's switch does. */
  const chooseModel = useCallback(
    (next: ChatModel) =>
      setState((s) => ({
        ...s,
        settings: { ...s.settings, model_name: next.name },
        images: imagesFor(next, s.images),
      })),
    [],
  );
  const applySettings = useCallback(
    (settings: ConversationFormValues, chosen: ChatModel | undefined) =>
      setState((s) => ({ ...s, settings, images: imagesFor(chosen, s.images) })),
    [],
  );
  const reset = useCallback(() => setState(blank()), []);
  /**
   * A first send that was refused before its turn began: what it took comes back, ahead of
   * anything typed into the new chat since.
   */
  const takeBack = useCallback(
    (taken: NewChatState) =>
      setState((s) => ({
        settings: taken.settings,
        input: s.input ? `${taken.input}\n\n${s.input}` : taken.input,
        images: s.images.length > 0 ? s.images : taken.images,
      })),
    [],
  );

  return useMemo(
    () => ({ ...state, model, setInput, setImages, chooseModel, applySettings, reset, takeBack }),
    [state, model, setInput, setImages, chooseModel, applySettings, reset, takeBack],
  );
}

export type NewChat = ReturnType<typeof useNewChat>;
