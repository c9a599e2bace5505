import { LIMITS, type SendMessageBody, sendFileIds } from '@aiplatform/contracts';
import type { ModelMessage } from 'ai';
import { type ImageLoader, buildPrompt } from '../../ai/prompt.js';
import type { ConversationRow, UserRow } from '../../db/types.js';
import type { CallableModel } from '../models/models.service.js';
import { type DocumentPlacement, placeDocuments } from './document-prompt.js';
import type { ImagesService } from './images.service.js';
import { type MessageBranches, type QuestionFile, type TurnQuestion, documentIdsOf } from './message-branches.js';
import { checkSentFiles } from './send-attachments.js';

/** A stored image as a turn's prompt needs it: where to read it and how big it is (known without reading it). */
export interface PromptImage {
  storedName: string;
  mime: string;
  size: number;
}

/** A message of the prompt: the history along the branch, then the question itself. */
export interface TurnMessage {
  role: 'user' | 'assistant';
  content: string;
  images: readonly PromptImage[];
  /** The ready documents the message attached, in order (their text is placed by `placeDocuments`). */
  documents?: readonly string[];
}

/** A prompt as sent: the SDK's messages, and their plain text for a token estimate. */
export interface TurnPromptBuilt {
  messages: ModelMessage[];
  text: string;
}

/** A turn's question and what its model is told before it, read before paying. */
export interface TurnInput {
  asked: TurnQuestion['asked'];
  /** The question's files (images and documents), in order. */
  files: QuestionFile[];
  /** The history along the branch, then the question, before any document text is placed. */
  messages: readonly TurnMessage[];
  /** The conversation's system prompt, unless blank. */
  system: string | undefined;
  /**
   * Whether building the prompt reads images from disk: such a prompt is built only once
   * the turn is paid for; any other may be built, and its answer asked for, before.
   */
  readsDisk: boolean;
  /**
   * Builds the prompt with the documents in place, reading the images within the turn's
   * budget one after another.
   */
  build(documents: DocumentPlacement): Promise<TurnPromptBuilt>;
}

/**
 * A step of a send: the question (new, or a stored one answered again), its files and
 * the history along its branch, read before the reservation adds this turn's own rows.
 * A new question's files pass `checkSentFiles` (images to a model that reads none are
 * refused with MODEL_NO_IMAGE; documents must be ready).
 */
export class TurnPrompts {
  constructor(
    private readonly branches: MessageBranches,
    private readonly images: ImagesService,
  ) {}

  async input(
    user: UserRow,
    conversation: ConversationRow,
    model: CallableModel,
    body: SendMessageBody,
    regenerateOf: string | undefined,
  ): Promise<TurnInput> {
    const { asked, files, history } =
      regenerateOf === undefined
        ? await this.branches.newQuestion(conversation, { content: body.content, parentId: body.parent_id }, () =>
            this.images.findOwn(user.id, sendFileIds(body)),
          )
        : await this.branches.storedQuestion(conversation, regenerateOf);
    const vision = model.row.image_upload_enabled === 1;
    if (asked.isNew) checkSentFiles(files, vision);

    const messages: TurnMessage[] = [
      ...history,
      {
        role: 'user',
        content: asked.content,
        images: files
          .filter((f) => f.kind === 'image')
          .map((f) => ({ storedName: f.stored_name, mime: f.mime, size: f.size })),
        documents: documentIdsOf(withFileIds(files)),
      },
    ];
    return {
      asked,
      files,
      messages,
      system: conversation.system_prompt.trim() ? conversation.system_prompt : undefined,
      readsDisk: readsImages(messages, vision),
      build: (documents) =>
        buildTurnPrompt(placeDocuments(messages, documents), {
          vision,
          loadImage: (name, mime) => this.images.read(name, mime),
        }),
    };
  }

  /**
   * The messages a send with these files would have now (its text not yet written): the
   * history of the branch shown and a question attaching the files. Others' files are not
   * found; documents not ready yet simply do not count.
   */
  async planned(user: UserRow, conversation: ConversationRow, fileIds: readonly string[]): Promise<TurnMessage[]> {
    const { files, history } = await this.branches.newQuestion(conversation, { content: '', parentId: undefined }, () =>
      this.images.findOwn(user.id, fileIds),
    );
    const question = { role: 'user' as const, content: '', images: [], documents: documentIdsOf(withFileIds(files)) };
    return [...history, question];
  }
}

const withFileIds = (files: readonly QuestionFile[]) => files.map((f) => ({ ...f, file_id: f.id }));

/**
 * Whether building the prompt reads files from disk: only images sent to a model that
 * reads them are. A turn whose prompt reads nothing may ask for its answer before its
 * credits are reserved; any other waits for the reservation, so a send that cannot be
 * paid costs no disk reads.
 */
export function readsImages(messages: readonly TurnMessage[], vision: boolean): boolean {
  return vision && messages.some((m) => m.images.length > 0);
}

/**
 * The images a turn sends, at most `budget` bytes of them (`LIMITS.imageBytesPerTurn`):
 * the question's own always go (at most four uploads, chosen for this question); earlier
 * questions' images go newest question first, each question's images together, while the
 * total stays within the budget. From the first earlier question whose images do not fit,
 * older images are left out; their text still goes.
 */
export function withinImageBudget(messages: readonly TurnMessage[], budget: number): TurnMessage[] {
  const out = [...messages];
  const last = messages.length - 1;
  let spent = 0;
  let full = false;
  for (let i = last; i >= 0; i -= 1) {
    const m = messages[i] as TurnMessage;
    if (m.images.length === 0) continue;
    const bytes = m.images.reduce((sum, image) => sum + image.size, 0);
    if (i !== last && (full || spent + bytes > budget)) {
      full = true;
      out[i] = { ...m, images: [] };
      continue;
    }
    spent += bytes;
  }
  return out;
}

/**
 * The SDK's messages for a turn. For a model that reads images, those within the turn's
 * budget are read from disk one after another (a send holds at most one turn's images);
 * for any other, nothing is read.
 */
export function buildTurnPrompt(
  messages: readonly TurnMessage[],
  opts: { vision: boolean; loadImage: ImageLoader; budget?: number },
): Promise<TurnPromptBuilt> {
  const sent = opts.vision ? withinImageBudget(messages, opts.budget ?? LIMITS.imageBytesPerTurn) : messages;
  return buildPrompt([...sent], opts);
}
