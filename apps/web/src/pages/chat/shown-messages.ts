import type { Message } from '@aiplatform/contracts';
import { i18n } from '../../i18n';
import { withNoAnswerMarks } from './no-answer';

/** A branch read from the server as the screen shows it: each unanswered question with its reason. */
export function toShownMessages(messages: Message[]) {
  return withNoAnswerMarks(messages, i18n.t('chat:message.noAnswer'), (code) => i18n.t(`errors:${code}`));
}
