import type { ImagePart, ModelMessage, TextPart } from 'ai';

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: string;
  /** A stored image attached to the message, if any. */
  image?: { storedName: string; mime: string } | undefined;
}

export type ImageLoader = (
  storedName: string,
  mime: string,
) => Promise<{ data: Buffer; mediaType: string } | undefined>;

/**
 * Turns past messages plus the new question into the SDK's messages. Images go along as
 * image parts only for a model that reads them; for others the text stands alone.
 * Returns the plain text too, for a token estimate when the provider reports no usage.
 */
export async function buildPrompt(
  messages: PromptMessage[],
  opts: { vision: boolean; loadImage: ImageLoader },
): Promise<{ messages: ModelMessage[]; text: string }> {
  const out: ModelMessage[] = [];
  let text = '';
  for (const m of messages) {
    text += `${m.content}\n`;
    if (m.role === 'assistant') {
      out.push({ role: 'assistant', content: m.content });
      continue;
    }
    const image = opts.vision && m.image ? await opts.loadImage(m.image.storedName, m.image.mime) : undefined;
    if (!image) {
      // Some APIs refuse an empty user turn; an image-only question sent to a text model keeps a marker.
      out.push({ role: 'user', content: m.content || (m.image ? '[image]' : ' ') });
      continue;
    }
    const parts: (TextPart | ImagePart)[] = m.content ? [{ type: 'text', text: m.content }] : [];
    parts.push({ type: 'image', image: image.data, mediaType: image.mediaType });
    out.push({ role: 'user', content: parts });
  }
  return { messages: out, text };
}
