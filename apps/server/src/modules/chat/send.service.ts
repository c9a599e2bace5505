import crypto from 'node:crypto';
import { type ErrorCode, type NonStreamAnswer, type SendMessageBody, sendFileIds } from '@aiplatform/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ModelMessage } from 'ai';
import { EarlyAnswer } from '../../ai/early-answer.js';
import { answerTokens, countTokens, estimateTokens } from '../../ai/tokens.js';
import {
  type AbortReason,
  type UpstreamCall,
  type UpstreamEnd,
  generateAnswer,
  streamAnswer,
} from '../../ai/upstream.js';
import type { UserRow } from '../../db/types.js';
import type { ChangeBus } from '../../lib/change-bus.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { CallableModel, ModelsService } from '../models/models.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { toConversation, toMessage } from './chat.presenter.js';
import type { ConversationsRepo } from './conversations.repo.js';
import type { ImagesService } from './images.service.js';
import type { MessagesRepo } from './messages.repo.js';
import { dayIn, statsTimeZone } from '../stats/stats-calendar.js';
import type { TurnAccounting } from './turn-accounting.js';
import { TurnSettling } from './turn-settling.js';
import { type Turn, type TurnSink, forwardedSink } from './turn.js';
import { ActiveAnswers } from './active-answers.js';
import type { AnswerForwarding, ForwardedAnswer } from './answer-forwarding.js';
import { AnswerStops } from './answer-stops.js';
import type { LiveAnswers } from './live-answers.js';
import { titleFromQuestion } from './auto-title.js';
import { likelyAffordable } from './likely-affordable.js';
import { refuseBeyondAnswerCap } from './answer-cap.js';
import type { MessageBranches } from './message-branches.js';
import { type ModelTitles, TITLE_WAIT_MS, settleWithin } from './model-title.js';
import { type TurnMessage, buildTurnPrompt, readsImages } from './turn-prompt.js';

/** Sending a message: checks, the credit reservation, the upstream call, and settling or refunding. */
export class SendService {
  /** Answers in progress, aborted with reason `shutdown` when the server stops. */
  private readonly active = new ActiveAnswers();
  private readonly stops: AnswerStops;
  /** Stores how each answer of this process ended, and says so when it could not. */
  private readonly settling: TurnSettling;

  constructor(
    private readonly conversations: ConversationsRepo,
    private readonly messages: MessagesRepo,
    private readonly accounting: TurnAccounting,
    private readonly models: ModelsService,
    private readonly images: ImagesService,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly timeouts: { firstByteMs: number; totalMs: number },
    private readonly log: FastifyBaseLogger,
    private readonly titles: ModelTitles,
    /** Writes streaming text and renews the leases of this process's answers. */
    private readonly live: LiveAnswers,
    /** Carries stop requests to the instance holding the answer. */
    private readonly bus: ChangeBus,
    /** Hands the answers of this process to pages watching them (GET …/stream), only while they do. */
    private readonly forwarding: AnswerForwarding,
    /** Where a turn goes among the conversation's versions, and the history along its branch. */
    private readonly branches: MessageBranches,
    /** Answers one user may have being written at once (`QUOTAS.answersInProgressPerUser` by default). */
    private readonly answersInProgressPerUser: number,
  ) {
    this.stops = new AnswerStops(conversations, messages, bus, this.active, clock);
    this.settling = new TurnSettling(accounting, clock, live.ownerId, log);
  }

  /**
   * Everything that can refuse a send happens here, before any byte of an answer:
   * ownership (404), model availability, image rules, then the credit reservation,
   * which writes the question and an empty answer in the same transaction. Stored images
   * (the question's and the history's) are read only after that, within the turn's image
   * budget and one after another, so a send that cannot be paid costs no disk reads.
   *
   * A streamed turn whose prompt reads nothing from disk (no image in the question nor in
   * the history, or a model that reads none) and whose sender's last known balance covers
   * it asks the upstream for its answer while the credits are being reserved (`EarlyAnswer`): nothing
   * is relayed before the reservation succeeds, and a refused turn aborts the call at once.
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
    const conversation = await this.conversations.findOwned(conversationId, user.id);
    if (!conversation) throw notFound();
    const model = this.models.callable(await this.models.findUsable(conversation.model_name, user.group_id));
    await refuseBeyondAnswerCap(this.messages, user.id, this.clock.now().toISOString(), this.answersInProgressPerUser);
    // Read before the reservation, which adds this turn's own rows.
    const { asked, files, history } =
      regenerateOf === undefined
        ? await this.branches.newQuestion(conversation, { content: body.content, parentId: body.parent_id }, () =>
            this.images.findOwn(user.id, sendFileIds(body)),
          )
        : await this.branches.storedQuestion(conversation, regenerateOf);
    const vision = model.row.image_upload_enabled === 1;
    if (files.length > 0 && !vision) throw new AppError('MODEL_NO_IMAGE');

    const turnMessages: TurnMessage[] = [
      ...history,
      {
        role: 'user',
        content: asked.content,
        images: files.map((f) => ({ storedName: f.stored_name, mime: f.mime, size: f.size })),
      },
    ];
    const buildPrompt = () =>
      buildTurnPrompt(turnMessages, { vision, loadImage: (name, mime) => this.images.read(name, mime) });

    const settings = await this.settings.getSettings();
    const { credits } = settings;
    const cost = credits.enabled ? model.row.credits_per_chat : 0;
    const required = credits.enabled ? Math.max(cost, credits.min_credits_for_chat) : 0;
    const now = this.clock.now().toISOString();
    const system = conversation.system_prompt.trim() ? conversation.system_prompt : undefined;
    const temperature = Number(conversation.ai_temperature);

    // A prompt that reads nothing from disk (no image, or a model that reads none) can be
    // built, and sent, before paying; one with images to read waits for the reservation.
    let prompt = readsImages(turnMessages, vision) ? undefined : await buildPrompt();
    const early =
      prompt && body.stream && model.row.stream_enabled === 1 && likelyAffordable(user, required, now)
        ? new EarlyAnswer(this.callWith(model, system, prompt.messages, temperature, ac.signal))
        : undefined;

    const questionId = asked.id;
    const answerId = crypto.randomUUID();
    const usage = {
      day: dayIn(now, statsTimeZone(settings)),
      userId: user.id,
      groupId: user.group_id,
      model: model.row.name,
    };
    const question = {
      id: questionId,
      conversation_id: conversation.id,
      role: 'user' as const,
      content: asked.content,
      parent_id: asked.parentId,
      tokens: estimateTokens(asked.content),
      model_name: null,
      status: 'complete' as const,
      created_at: now,
    };
    // A conversation without a title takes one from its first question; the model may write a better one.
    const questionTitle = titleFromQuestion(asked.content);
    let creditsRemaining: number;
    try {
      creditsRemaining = await this.accounting.open({
        userId: user.id,
        conversationId: conversation.id,
        cost,
        required,
        question,
        questionIsNew: asked.isNew,
        questionFileIds: files.map((f) => f.id),
        answer: {
          ...question,
          id: answerId,
          role: 'assistant',
          content: '',
          parent_id: questionId,
          tokens: 0,
          model_name: model.row.name,
          status: 'streaming',
          owner_id: this.live.ownerId,
          lease_until: this.live.leaseUntil(),
        },
        title: questionTitle,
        now,
        usage,
      });
    } catch (err) {
      // Refused (or the database failed): an answer asked for early is not wanted.
      if (early) ac.abort('client');
      throw err;
    }
    // From the moment the answer row exists a stop call can find it: listen at once, not
    // only when the stream starts (nothing runs between the commit and this line).
    const stopListening = this.stops.listen(conversation.id, ac);
    const ref = { userId: user.id, conversationId: conversation.id, cost, questionId, answerId, usage };
    if (!prompt) {
      try {
        prompt = await buildPrompt();
      } catch (err) {
        stopListening();
        await this.settling.refund(ref, null);
        throw err;
      }
    }
    const titling =
      conversation.title === '' && settings.ai.model_titles
        ? this.titles.start({
            model: model.languageModel,
            conversationId: conversation.id,
            question: asked.content,
            questionTitle,
          })
        : undefined;
    return {
      ...ref,
      conversation,
      model,
      userMessage: toMessage(
        {
          ...question,
          seq: 0,
          file_id: null,
          owner_id: null,
          lease_until: null,
          files: files.map((f) => ({ id: f.id, original_name: f.original_name })),
        },
        this.images.urls.forOwner(user.id),
      ),
      creditsRemaining,
      system,
      messages: prompt.messages,
      promptText: `${conversation.system_prompt}\n${prompt.text}`,
      titling,
      early,
      stopListening,
    };
  }

  /**
   * Non-stream mode: the whole answer, or UPSTREAM_ERROR after the refund. Like a stream,
   * it is written and charged even if its client left meanwhile; a page watching it
   * receives the whole text at the end. An answer that could not be stored as produced
   * answers the reason instead (see `TurnSettling`).
   */
  async answerWhole(turn: Turn, ac: AbortController): Promise<NonStreamAnswer> {
    return this.track(turn, ac, async (_partial, forward) => {
      const { end, text } = await generateAnswer(this.call(turn, ac.signal));
      const tokens = end.kind === 'finished' ? countTokens(end.usage, turn.promptText, text) : 0;
      const failure =
        end.kind !== 'finished' || !text
          ? ((await this.fail(turn, end)) ?? 'UPSTREAM_ERROR')
          : await this.settling.keep(turn, { content: text, tokens, status: 'complete' });
      if (failure) {
        forward.error(failure);
        throw new AppError(failure);
      }
      if (end.kind === 'finished') {
        forward.done({ content: text, messageId: turn.answerId, tokens, finish_reason: end.finishReason });
      }
      await settleWithin(turn.titling, TITLE_WAIT_MS);
      const [answer, conversation] = await Promise.all([
        this.messages.findOne(turn.conversationId, turn.answerId),
        this.conversations.findOwned(turn.conversationId, turn.userId),
      ]);
      if (!answer || !conversation) throw notFound();
      return {
        user_message: turn.userMessage,
        assistant_message: toMessage(answer, this.images.urls.forOwner(turn.userId)),
        credits_info: { credits_remaining: turn.creditsRemaining, credits_consumed: turn.cost },
        conversation: toConversation(conversation),
      };
    });
  }

  /**
   * Stream mode. With no output at all the turn is refunded; with some, it is charged
   * and the text kept: `stopped` after a stop call (or when the server stops), `error`
   * when the upstream broke off or ran out of time. A client that leaves stops nothing:
   * the answer goes on and pages may watch it (`sink` then writes to nobody). The stream
   * ends with what was stored: `done` only once the answer is, else an error naming why.
   */
  async answerStream(turn: Turn, toClient: TurnSink, ac: AbortController): Promise<void> {
    await this.track(turn, ac, async (partial, forward) => {
      const sink = forwardedSink(toClient, forward);
      let text = '';
      const onDelta = (delta: string) => {
        text += delta;
        partial.update(text);
        sink.delta(delta);
      };
      const end = await (turn.early ? turn.early.relayTo(onDelta) : streamAnswer(this.call(turn, ac.signal), onDelta));
      partial.end();
      if (!text) {
        const lost = await this.fail(turn, end);
        // Stopped before any output (a stop call; a gone client hears nothing): refunded, and said so.
        if (lost) sink.error(lost);
        else if (isAbort(end, 'client'))
          sink.done({ content: '', messageId: turn.answerId, tokens: 0, finish_reason: 'stopped' });
        else sink.error(isAbort(end, 'shutdown') ? 'SERVICE_UNAVAILABLE' : 'UPSTREAM_ERROR');
        return;
      }
      const status =
        end.kind === 'finished' ? 'complete' : isAbort(end, 'client') || isAbort(end, 'shutdown') ? 'stopped' : 'error';
      if (status === 'error') this.settling.logEnd(turn, end);
      const tokens = answerTokens(end, turn.promptText, text);
      const lost = await this.settling.keep(turn, { content: text, tokens, status });
      // The client reads the conversation list again at the end: let it find the model's title.
      await settleWithin(turn.titling, TITLE_WAIT_MS);
      const done = { content: text, messageId: turn.answerId, tokens };
      if (lost) sink.error(lost);
      else if (end.kind === 'finished') sink.done({ ...done, finish_reason: end.finishReason });
      else if (status === 'stopped') sink.done({ ...done, finish_reason: 'stopped' });
      else sink.error('UPSTREAM_ERROR');
    });
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

  /**
   * Runs one answer: known to this process for shutdown (stoppable from any instance
   * through the change bus since `prepare`), its text written as it grows and its lease
   * kept alive.
   */
  private async track<T>(
    turn: Turn,
    ac: AbortController,
    run: (partial: { update(text: string): void; end(): void }, forward: ForwardedAnswer) => Promise<T>,
  ): Promise<T> {
    const written = this.live.follow(turn.answerId);
    const forward = this.forwarding.open(turn.answerId);
    const partial = {
      update: (text: string) => {
        written.update(text);
        forward.grew(text);
      },
      end: () => written.end(),
    };
    try {
      return await this.active.track(turn.conversationId, ac, () => run(partial, forward));
    } finally {
      turn.stopListening();
      written.end();
      forward.close();
    }
  }

  private call(turn: Turn, signal: AbortSignal): UpstreamCall {
    return this.callWith(turn.model, turn.system, turn.messages, Number(turn.conversation.ai_temperature), signal);
  }

  private callWith(
    model: CallableModel,
    system: string | undefined,
    messages: ModelMessage[],
    temperature: number,
    signal: AbortSignal,
  ): UpstreamCall {
    return {
      model: model.languageModel,
      system,
      messages,
      temperature,
      signal,
      firstByteTimeoutMs: this.timeouts.firstByteMs,
      totalTimeoutMs: this.timeouts.totalMs,
    };
  }

  /**
   * No answer: refund exactly once, remove the placeholder and keep why on the question.
   * Undefined once refunded, else why the refund could not be stored.
   */
  private fail(turn: Turn, end: UpstreamEnd): Promise<ErrorCode | undefined> {
    if (!isAbort(end, 'client')) this.settling.logEnd(turn, end);
    const code = isAbort(end, 'client') ? null : isAbort(end, 'shutdown') ? 'SERVICE_UNAVAILABLE' : 'UPSTREAM_ERROR';
    return this.settling.refund(turn, code);
  }
}

const isAbort = (end: UpstreamEnd, reason: AbortReason) => end.kind === 'aborted' && end.reason === reason;
