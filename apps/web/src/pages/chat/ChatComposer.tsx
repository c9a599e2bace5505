import type { ChatCredits, ChatModel, Conversation, MessageFile } from '@aiplatform/contracts';
import { ClearOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../api/notify';
import { CapComposerLine } from '../../components/caps/CapComposerLine';
import { CapRefusalAlert } from '../../components/caps/CapRefusalAlert';
import { ChatInput } from '../../components/chat/ChatInput';
import { creditsPerChat } from '../../components/chat/credit-check';
import { ImagePreviews, ImageUploadButton } from '../../components/chat/ImageAttachment';
import { asMessageFile } from '../../components/chat/image-attachments';
import { AttachButton } from '../../components/documents/AttachButton';
import { DocumentChips } from '../../components/documents/DocumentChips';
import { DocumentPlanLine } from '../../components/documents/DocumentPlanLine';
import { FileDropZone } from '../../components/documents/FileDropZone';
import { useOpenText } from '../../components/documents/TextViewerProvider';
import { documentsOf, imagesOf, sendHold, withAttachments } from '../../components/documents/document-attachments';
import { useAttach } from '../../components/documents/use-attach';
import { useDocumentInfos } from '../../components/documents/use-document-infos';
import { ModelPicker } from '../../components/chat/ModelPicker';
import { formatNumber } from '../../components/common/format';
import { type ChatSessions, useSessionValue } from './chat-sessions';
import type { DraftKeeper } from './draft-keeper';
import { createBody, imagesFor } from './new-chat';
import type { ConversationCache } from './use-chat-queries';
import type { useConversationActions } from './use-conversation-actions';
import type { useMessageActions } from './use-message-actions';
import type { NewChat } from './use-new-chat';
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
  /** The chat before its first message: composes while no conversation is open. */
  newChat: NewChat;
  /** Its first send was refused and its conversation undone. */
  onNewChatRefused: () => void;
}

/**
 * The input area: model picker, attachments (picked, dropped or pasted), export and clear,
 * the text box, the documents' plan, balance and send/stop.
 */
export function ChatComposer(props: ChatComposerProps) {
  const { store, drafts, conversationId, conversation, modelLabel, models, actions, newChat } = props;
  const { t, i18n } = useTranslation();
  const { send, submit, stop } = props.sender;
  const sessionInput = useSessionValue(store, conversationId, (s) => s.input);
  const sessionImages = useSessionValue(store, conversationId, (s) => s.images);
  const busy = useSessionValue(store, conversationId, (s) => s.phase !== 'idle');
  const queued = useSessionValue(store, conversationId, (s) => s.queued);
  const ready = useSessionValue(store, conversationId, (s) => s.status === 'ready');
  // With no conversation open the composer writes the new chat, on the model chosen for it.
  const input = conversationId ? sessionInput : newChat.input;
  const images = conversationId ? sessionImages : newChat.images;
  const model = conversationId ? props.model : (newChat.model ?? undefined);
  // A second Enter while the conversation is being made must not make another one.
  const starting = useRef(false);
  const openText = useOpenText();
  const documents = documentsOf(images);
  const infos = useDocumentInfos(documents.map((d) => d.id));
  const hold = sendHold(documents, infos);
  const readyIds = hold === null ? documents.map((d) => d.id) : [];
  const knowledgeCount = conversation?.knowledge_base_ids?.length ?? 0;

  const setInput = (value: string) => {
    if (!conversationId) return newChat.setInput(value);
    // Editing cancels a queued send: only what the box shows is ever sent.
    store.update(conversationId, { input: value, queued: false });
    drafts.schedule(conversationId, value);
  };
  const setImages = (change: (images: MessageFile[]) => MessageFile[]) => {
    if (!conversationId) return newChat.setImages(change);
    store.update(conversationId, (s) => ({ images: change(s.images), queued: false }));
  };
  const imagesAllowed = Boolean(model?.image_upload_enabled);
  const attacher = useAttach(images, imagesAllowed, (added) => setImages((current) => withAttachments(current, added)));
  const remove = (id: string) => setImages((current) => current.filter((f) => f.id !== id));
  /** A document still being read (or one that failed) holds the send; the note says why. */
  const heldBack = (): boolean => {
    if (!hold) return false;
    toast('warning', t(hold === 'processing' ? 'chat:documents.waitReady' : 'chat:documents.removeFailed'));
    return true;
  };

  /**
   * The new chat's first send: the conversation is made with its settings, then sent to.
   * A send refused before its turn began undoes the conversation and gives the text back.
   */
  const startAndSend = async () => {
    const startModel = newChat.model;
    // While the models are still loading the text simply stays in the box.
    if ((!newChat.input.trim() && newChat.images.length === 0) || starting.current || startModel === undefined) return;
    if (!startModel) {
      toast('warning', t('chat:form.noModels'));
      return;
    }
    const taken = { settings: newChat.settings, input: newChat.input, images: newChat.images };
    let id: string | null = null;
    starting.current = true;
    try {
      // Checked before the conversation is made, so a refused send leaves no empty one behind.
      if (await props.sender.refusedForCredits(startModel)) return;
      id = await actions.start(
        createBody({ ...taken.settings, model_name: startModel.name }),
        taken.input,
        imagesFor(startModel, taken.images),
      );
      if (!id) return;
      newChat.reset();
    } finally {
      starting.current = false;
    }
    await send(id, startModel, startModel.name);
    if (store.get(id).messages.length > 0) return;
    const left = await actions.abandon(id);
    if (!left) return;
    newChat.takeBack({ settings: taken.settings, input: left.input, images: left.images });
    props.onNewChatRefused();
  };
  const onSend = () => {
    if (heldBack()) return;
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
        current={model?.name}
        currentLabel={(conversationId ? modelLabel : model?.display_name) || t('chat:model.picker')}
        disabled={conversationId ? !conversation || busy : models.length === 0}
        onChange={(name) => {
          const next = models.find((m) => m.name === name);
          if (!next) return;
          if (conversationId) void actions.switchModel(conversationId, next);
          else newChat.chooseModel(next);
        }}
      />
      <AttachButton
        disabled={busy || attacher.uploading}
        uploading={attacher.uploading}
        imagesAllowed={imagesAllowed}
        onFiles={attacher.attach}
      />
      {imagesAllowed && (
        <ImageUploadButton
          disabled={busy}
          attached={imagesOf(images).length}
          onUploaded={(uploaded) => setImages((current) => withAttachments(current, uploaded.map(asMessageFile)))}
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
    <>
      <DocumentPlanLine
        conversationId={conversationId}
        readyFileIds={readyIds}
        modelName={model?.name}
        enabled={hold === null && (readyIds.length > 0 || knowledgeCount > 0)}
      />
      <span data-testid="chat-credits" className={balance !== undefined && balance < price ? 'is-short' : undefined}>
        {balance !== undefined && t('chat:input.balance', { balance: formatNumber(balance, i18n.language) })}
        {model && ` · ${t('chat:input.cost', { n: price })}`}
      </span>
      <CapComposerLine />
    </>
  );
  const shownImages = imagesAllowed ? imagesOf(images) : [];

  return (
    <FileDropZone disabled={busy} onFiles={attacher.attach}>
      <ChatInput
        value={input}
        onChange={setInput}
        busy={busy}
        queued={queued}
        onSend={onSend}
        onStop={() => conversationId && stop(conversationId)}
        toolbar={toolbar}
        attachment={
          <>
            <CapRefusalAlert />
            {shownImages.length > 0 && <ImagePreviews images={shownImages} onRemove={remove} />}
            <DocumentChips
              documents={documents}
              infos={infos}
              onRemove={remove}
              onOpen={(file) => openText({ fileId: file.id, name: file.original_name })}
            />
            {hold === 'processing' && (
              <div className="document-plan" role="status" data-testid="documents-waiting">
                {t('chat:documents.waitReady')}
              </div>
            )}
          </>
        }
        footer={footer}
      />
    </FileDropZone>
  );
}
