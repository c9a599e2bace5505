import type { DocumentPlan, Message, NonStreamAnswer, SendMessageBody, Settings } from '@aiplatform/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ConversationRow, UserRow } from '../../db/types.js';
import type { ChangeBus } from '../../lib/data/change-bus.js';
import type { Clock } from '../../lib/runtime/clock.js';
import type { CallableModel, ModelsService } from '../models/models.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { toMessage } from './chat.presenter.js';
import type { ConversationsRepo } from './conversations.repo.js';
import type { ImagesService } from './images.service.js';
import type { MessagesRepo } from './messages.repo.js';
import type { TurnAccounting } from './turn-accounting.js';
import type { Turn, TurnSink } from './turn.js';
import { ActiveAnswers } from './active-answers.js';
import type { AnswerForwarding } from './answer-forwarding.js';
import { AnswerStops } from './answer-stops.js';
import type { LiveAnswers } from './live-answers.js';
import type { MessageBranches } from './message-branches.js';
import type { ModelTitles } from './model-title.js';
import { SendAuthorisation } from './send-authorise.js';
import type { DocumentTurn, TurnDocuments } from './send-documents.js';
import { turnPrice, usableModel } from './send-model.js';
import { type TurnInput, type TurnPromptBuilt, TurnPrompts } from './send-prompt.js';
import { type Reservation, TurnReservation } from './send-reserve.js';
import { AnswerRelay, type UpstreamLimits } from './send-relay.js';
import { TurnSettling } from './send-settle.js';

/**
 * Sending a message, as named steps, each in its own file: authorise (send-authorise) →
 * resolve the model and its price (send-model) → the question, its files (send-attachments)
 * and its history (send-prompt) → the documents: whole or by relevance, and their price
 * (send-documents) → reserve the credits, asking for the answer meanwhile when it can
 * (send-reserve) → relay the answer (send-relay) → settle or refund (send-settle).
 */
export class SendService {
  /** Answers in progress, aborted with reason `shutdown` when the server stops. */
  private readonly active = new ActiveAnswers();
  private readonly stops: AnswerStops;
  private readonly authorise: SendAuthorisation;
  private readonly prompts: TurnPrompts;
  private readonly reservation: TurnReservation;
  private readonly relay: AnswerRelay;
  /** Stores how each answer of this process ended, and says so when it could not. */
  private readonly settling: TurnSettling;

  constructor(
    conversations: ConversationsRepo,
    messages: MessagesRepo,
    accounting: TurnAccounting,
    private readonly models: ModelsService,
    private readonly images: ImagesService,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    limits: UpstreamLimits,
    log: FastifyBaseLogger,
    private readonly titles: ModelTitles,
    /** Writes streaming text and renews the leases of this process's answers. */
    private readonly live: LiveAnswers,
    /** Carries stop requests to the instance holding the answer. */
    bus: ChangeBus,
    /** Hands the answers of this process to pages watching them (GET …/stream), only while they do. */
    forwarding: AnswerForwarding,
    /** Where a turn goes among the conversation's versions, and the history along its branch. */
    branches: MessageBranches,
    /** Answers one user may have being written at once (`QUOTAS.answersInProgressPerUser` by default). */
    answersInProgressPerUser: number,
    /** The documents in play and the conversation's knowledge bases: what they add to a turn. */
    private readonly documents: TurnDocuments,
  ) {
    this.stops = new AnswerStops(conversations, messages, bus, this.active, clock);
    this.authorise = new SendAuthorisation(conversations, messages, clock, answersInProgressPerUser);
    this.prompts = new TurnPrompts(branches, images);
    this.reservation = new TurnReservation(accounting, this.stops, live, limits);
    this.settling = new TurnSettling(accounting, clock, live.ownerId, log);
    this.relay = new AnswerRelay(this.active, live, forwarding, this.settling, messages, conversations, images, limits);
  }

  /**
   * Everything that can refuse a send happens here, before any byte of an answer:
   * ownership (404), model availability, the cap on answers in progress, file rules
   * (images, documents ready), then the credit reservation (document tokens included), which writes the question and an empty answer in the
   * same transaction. Stored images (the question's and the history's) are read only
   * after that, within the turn's image budget and one after another, so a send that
   * cannot be paid costs no disk reads; a prompt that reads none is built first and its
   * answer may be asked for during the reservation (see `TurnReservation`).
   * `ac` is the turn's controller: aborting it stops the upstream call.
   *
   * With `regenerateOf` (a question's id) the turn answers that stored question again:
   * a new version of its answer, billed like any turn, the question not duplicated.
   */
  async prepare(
    user: UserRow,
    conversationId: string,
    body: SendMessageBody,
    ac: AbortController,
    regenerateOf?: string,
  ): Promise<Turn> {
    const conversation = await this.authorise.conversation(user, conversationId);
    const model = await usableModel(this.models, conversation, user);
    await this.authorise.answerCap(user);
    // Read before the reservation, which adds this turn's own rows.
    const input = await this.prompts.input(user, conversation, model, body, regenerateOf);
    const settings = await this.settings.getSettings();
    const documents = await this.documents.forTurn(user, conversation, model.row, input.messages, settings);
    const price = turnPrice(model, settings.credits, documents.credits);
    const now = this.clock.now().toISOString();
    // A prompt that reads nothing from disk can be built, and sent, before paying; one with images waits.
    const promptBeforePaying = input.readsDisk ? undefined : await input.build(documents.placement);
    const reserved = await this.reservation.reserve(
      {
        user,
        conversation,
        model,
        input,
        price,
        settings,
        now,
        prompt: promptBeforePaying,
        stream: body.stream,
        citations: documents.citations,
      },
      ac,
    );
    const prompt = promptBeforePaying ?? (await this.promptAfterPaying(input, documents, reserved));
    const titling = this.titleOnFirstTurn(conversation, model, input, reserved, settings);
    return {
      ...reserved.ref,
      conversation,
      model,
      userMessage: this.questionAsSent(user, input, reserved),
      creditsRemaining: reserved.creditsRemaining,
      system: input.system,
      messages: prompt.messages,
      promptText: `${conversation.system_prompt}\n${prompt.text}`,
      titling,
      early: reserved.early,
      stopListening: reserved.stopListening,
      citations: documents.citations,
    };
  }

  /**
   * POST /chat/conversations/{id}/document-plan: what a send with these files would do now
   * (on `modelName` when the composer switched models), decided as the send decides.
   */
  async documentPlan(
    user: UserRow,
    conversationId: string,
    fileIds: readonly string[],
    modelName: string | undefined,
  ): Promise<DocumentPlan> {
    const conversation = await this.authorise.conversation(user, conversationId);
    const model = await this.models.findUsable(modelName ?? conversation.model_name, user.group_id);
    const messages = await this.prompts.planned(user, conversation, fileIds);
    const settings = await this.settings.getSettings();
    const plan = await this.documents.estimate(user, conversation, model, messages, settings);
    return {
      mode: plan.mode,
      document_tokens: plan.tokens,
      credits: turnPrice({ row: model }, settings.credits, plan.credits).cost,
    };
  }

  /** Non-stream mode: the whole answer (see `AnswerRelay.whole`). */
  answerWhole(turn: Turn, ac: AbortController): Promise<NonStreamAnswer> {
    return this.relay.whole(turn, ac);
  }

  /** Stream mode: the answer relayed to `toClient` as it comes (see `AnswerRelay.stream`). */
  answerStream(turn: Turn, toClient: TurnSink, ac: AbortController): Promise<void> {
    return this.relay.stream(turn, toClient, ac);
  }

  /** Stops every answer in progress (their partial text is kept) and waits until they are stored. */
  async close(): Promise<void> {
    await this.active.stopAll();
    await this.live.close();
  }

  /** POST /chat/conversations/{id}/stop (see `AnswerStops.stop`). */
  stop(userId: number, conversationId: string): Promise<{ stopped: number }> {
    return this.stops.stop(userId, conversationId);
  }

  /** A prompt with images, read once the turn is paid for: if reading them fails, the turn is refunded. */
  private async promptAfterPaying(
    input: TurnInput,
    documents: DocumentTurn,
    reserved: Reservation,
  ): Promise<TurnPromptBuilt> {
    try {
      return await input.build(documents.placement);
    } catch (err) {
      reserved.stopListening();
      await this.settling.refund(reserved.ref, null);
      throw err;
    }
  }

  /** On a conversation's first turn, when the setting asks for it, the model writes a better title beside its answer. */
  private titleOnFirstTurn(
    conversation: ConversationRow,
    model: CallableModel,
    input: TurnInput,
    reserved: Reservation,
    settings: Settings,
  ): Promise<void> | undefined {
    if (conversation.title !== '' || !settings.ai.model_titles) return undefined;
    return this.titles.start({
      model: model.languageModel,
      conversationId: conversation.id,
      question: input.asked.content,
      questionTitle: reserved.questionTitle,
    });
  }

  /** The question as the client shows it, its images at owner-bound addresses, its documents by id. */
  private questionAsSent(user: UserRow, input: TurnInput, reserved: Reservation): Message {
    return toMessage(
      {
        ...reserved.question,
        seq: 0,
        file_id: null,
        owner_id: null,
        lease_until: null,
        citations: null,
        files: input.files.map((f) => ({ id: f.id, original_name: f.original_name, kind: f.kind })),
      },
      this.images.urls.forOwner(user.id),
    );
  }
}
