import { type ChatModel, LIMITS, type MessageFile } from '@aiplatform/contracts';
import { describe, expect, it } from 'vitest';
import { blankNewChatSettings, createBody, imagesFor, newChatModel } from './new-chat';

const model = (name: string, image = false): ChatModel => ({
  id: name.length,
  name,
  display_name: name.toUpperCase(),
  provider: 'openai',
  credits_per_chat: 10,
  stream_enabled: true,
  image_upload_enabled: image,
  sort_order: 0,
  context_window: 128_000,
  credits_per_1k_document_tokens: 0,
});

const image = (id: string): MessageFile => ({ id, url: `/api/chat/images/${id}`, original_name: `${id}.png` });

describe('the new chat before its first message', () => {
  const plain = model('plain');
  const vision = model('vision', true);

  it('goes to the model chosen while it is offered, else to the default one', () => {
    expect(newChatModel([plain, vision], 'vision', plain)).toBe(vision);
    expect(newChatModel([plain, vision], '', plain)).toBe(plain);
    // Chosen, then withdrawn (the list was read again): the default takes over.
    expect(newChatModel([plain], 'vision', plain)).toBe(plain);
    expect(newChatModel([], '', undefined)).toBeUndefined();
    expect(newChatModel([], '', null)).toBeNull();
  });

  it('sends only the settings filled in, so the server applies its defaults to the rest', () => {
    const blank = blankNewChatSettings();
    expect(createBody({ ...blank, model_name: 'vision' })).toEqual({
      model_name: 'vision',
      context_length: LIMITS.contextLengthDefault,
      priority: 0,
    });
    expect(
      createBody({
        ...blank,
        model_name: 'plain',
        title: '  Trip  ',
        system_prompt: ' Answer briefly ',
        ai_temperature: 0.2,
        priority: 3,
      }),
    ).toEqual({
      model_name: 'plain',
      title: 'Trip',
      system_prompt: 'Answer briefly',
      context_length: LIMITS.contextLengthDefault,
      ai_temperature: 0.2,
      priority: 3,
    });
  });

  it('keeps attached images only for a model that accepts them', () => {
    const images = [image('a'), image('b')];
    expect(imagesFor(vision, images)).toBe(images);
    expect(imagesFor(plain, images)).toEqual([]);
    // Unknown yet (models loading): nothing is dropped.
    expect(imagesFor(undefined, images)).toBe(images);
  });

  it('makes the conversation with the knowledge bases chosen, and without the field when none was', () => {
    const values = { ...blankNewChatSettings(), model_name: 'plain' };
    expect(createBody({ ...values, knowledge_base_ids: [4, 9] })).toMatchObject({ knowledge_base_ids: [4, 9] });
    expect(createBody({ ...values, knowledge_base_ids: [] })).not.toHaveProperty('knowledge_base_ids');
  });

  it('keeps attached documents for any model', () => {
    const doc = { id: 'd', url: '', original_name: 'a.pdf', kind: 'document' as const };
    expect(imagesFor(plain, [image('a'), doc, image('b')])).toEqual([doc]);
  });
});
