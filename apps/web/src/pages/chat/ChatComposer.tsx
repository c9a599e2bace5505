import type { ChatModel, Conversation } from '@aiplatform/contracts';
import { ClearOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatCredits } from '../../api/chat';
import { toast } from '../../api/notify';
import { ChatInput } from '../../components/chat/ChatInput';
import { creditsPerChat } from '../../components/chat/credit-check';
import { ImagePreviews, ImageUploadButton } from '../../components/chat/ImageAttachment';
import { asMessageFile, withImages } from '../../components/chat/image-attachments';
import { ModelPicker } from '../../components/chat/ModelPicker';
import { formatNumber } from '../../components/common/format';
import { type ChatSessions, useSessionValue } from './chat-sessions';
import type { DraftKeeper } from './draft-keeper';
import { type ConversationCache, useStartModel } from './use-chat-queries';
import type { useConversationActions } from './use-conversation-actions';
import type { useMessageActions } from './use-message-actions';
import type { useSendMessage } from './use-send-message';

interface ChatComposerProps {
  store: ChatSessions;
  drafts: DraftKeeper;
  cache: ConversationCache;
  conversationId: string | null;
  conversation: Conversation | null;
  model: ChatModel | undefined;
  /** The conversation's model is no longer offered: sending waits for another choice. */
  modelGone: boolean;
  modelLabel: string;
  models: ChatModel[];
  credits: ChatCredits | undefined;
  actions: ReturnType<typeof useConversationActions>;
  messageActions: ReturnType<typeof useMessageActions>;
  sender: ReturnType<typeof useSendMessage>;
}

/** The input area: model picker, image, export and clear, the text box, balance and send/stop. */
export function ChatComposer(props: ChatComposerProps) {
  const { store, drafts, conversationId, conversation, model, modelLabel, models, actions } = props;
  const { t, i18n } = useTranslation();
  const { send, submit, stop } = props.sender;
  const input = useSessionValue(store, conversationId, (s) => s.input);
  const images = useSessionValue(store, conversationId, (s) => s.images);
  const busy = useSessionValue(store, conversationId, (s) => s.phase !== 'idle');
  const queued = useSessionValue(store, conversationId, (s) => s.queued);
  const ready = useSessionValue(store, conversationId, (s) => s.status === 'ready');
  // Text typed before any conversation is chosen; sending it starts one.
  const [looseInput, setLooseInput] = useState('');
  const startModel = useStartModel();
  // A second Enter while the conversation is being made must not make another one.
  const starting = useRef(false);

  const setInput = (value: string) => {
    if (!conversationId) return setLooseInput(value);
    // Editing cancels a queued send: only what the box shows is ever sent.
    store.update(conversationId, { input: value, queued: false });
    drafts.schedule(conversationId, value);
  };
  /** Sending with no conversation: one is made with the default model and settings, then sent to. */
  const startAndSend = async () => {
    // While the models are still loading the text simply stays in the box.
    if (!looseInput.trim() || starting.current || startModel === undefined) return;
    if (!startModel) {
      toast('warning', t('chat:form.noModels'));
      return;
    }
    starting.current = true;
    try {
      // Checked before the conversation is made, so a refused send leaves no empty one behind.
      if (await props.sender.refusedForCredits(startModel)) return;
      const id = await actions.start(startModel, looseInput);
      if (!id) return;
      setLooseInput('');
      void send(id, startModel, startModel.name);
    } finally {
      starting.current = false;
    }
  };
  const onSend = () => {
    if (!conversationId) {
      void startAndSend();
      return;
    }
    if (props.modelGone) {
      toast('warning', t('chat:model.goneHint'));
      return;
    }
    submit(conversationId, model, conversation?.model_name ?? null);
  };

  const toolbar = (
    <>
      <ModelPicker
        models={models}
        current={conversation?.model_name}
        currentLabel={modelLabel || t('chat:model.picker')}
        disabled={!conversation || busy}
        onChange={(name) => {
          const next = models.find((m) => m.name === name);
          if (next && conversationId) void actions.switchModel(conversationId, next);
        }}
      />
      {conversationId && model?.image_upload_enabled && (
        <ImageUploadButton
          disabled={busy}
          attached={images.length}
          onUploaded={(uploaded) =>
            store.update(conversationId, (s) => ({ images: withImages(s.images, uploaded.map(asMessageFile)) }))
          }
        />
      )}
      <span className="chat-toolbar-spacer" />
      <Tooltip title={t('chat:export.button')}>
        <Button
          icon={<DownloadOutlined />}
          disabled={!conversation || busy}
          onClick={() =>
            conversation &&
            props.messageActions.exportConversation(conversation, store.get(conversation.id).messages, modelLabel)
          }
          aria-label={t('chat:export.button')}
          data-testid="export-button"
        />
      </Tooltip>
      <Tooltip title={t('chat:clear.button')}>
        <Button
          icon={<ClearOutlined />}
          disabled={!conversationId || busy || !ready}
          onClick={() => conversationId && actions.confirmClear(conversationId)}
          aria-label={t('chat:clear.button')}
          data-testid="clear-button"
        />
      </Tooltip>
    </>
  );

  const balance = props.credits?.credits_stats.remaining;
  const price = creditsPerChat(model);
  const footer = (
    <span data-testid="chat-credits" className={balance !== undefined && balance < price ? 'is-short' : undefined}>
      {balance !== undefined && t('chat:input.balance', { balance: formatNumber(balance, i18n.language) })}
      {conversation && ` · ${t('chat:input.cost', { n: price })}`}
    </span>
  );

  return (
    <ChatInput
      value={conversationId ? input : looseInput}
      onChange={setInput}
      busy={busy}
      queued={queued}
      onSend={onSend}
      onStop={() => conversationId && stop(conversationId)}
      toolbar={toolbar}
      attachment={
        conversationId && images.length > 0 && model?.image_upload_enabled ? (
          <ImagePreviews
            images={images}
            onRemove={(id) =>
              store.update(conversationId, (s) => ({ images: s.images.filter((f) => f.id !== id), queued: false }))
            }
          />
        ) : null
      }
      footer={footer}
    />
  );
}
