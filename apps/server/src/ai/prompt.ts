import type { ImagePart, ModelMessage, TextPart } from 'ai';

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: string;
  /** The stored images attached to the message, in order. */
  images?: readonly { storedName: string; mime: string }[] | undefined;
}

export type ImageLoader = (
  storedName: string,
  mime: string,
) => Promise<{ data: Buffer; mediaType: string } | undefined>;

/**
 * Turns past messages plus the new question into the SDK's messages. Images go along as
 * image parts, in order after the text, only for a model that reads them; for others the
 * text stands alone. An image gone from disk is left out.
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
    const attached = m.images ?? [];
    // One after another: a prompt never has more than its own images in memory, and those
    // are read in turn rather than all opened at once.
    const images: { data: Buffer; mediaType: string }[] = [];
    for (const i of opts.vision ? attached : []) {
      const image = await opts.loadImage(i.storedName, i.mime);
      if (image) images.push(image);
    }
    if (images.length === 0) {
      // Some APIs refuse an empty user turn; an image-only question sent to a text model keeps a marker.
      out.push({ role: 'user', content: m.content || (attached.length > 0 ? '[image]' : ' ') });
      continue;
    }
    const parts: (TextPart | ImagePart)[] = m.content ? [{ type: 'text', text: m.content }] : [];
    for (const image of images) parts.push({ type: 'image', image: image.data, mediaType: image.mediaType });
    out.push({ role: 'user', content: parts });
  }
  return { messages: out, text };
}
