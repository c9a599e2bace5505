import { DOCUMENT_LIMITS, MAX_IMAGES_PER_MESSAGE, type MessageFile } from '@aiplatform/contracts';
import { chatApi } from '../../api/chat';
import { filesApi } from '../../api/documents';
import { toast } from '../../api/notify';
import { i18n } from '../../i18n';
import { errorText } from '../common/report-error';
import { checkImageFile } from '../chat/image-check';
import { asMessageFile, fitToLimit } from '../chat/image-attachments';
import { documentAttachment, documentRoom, imagesOf, splitPicked } from './document-attachments';

/**
 * Images as the image button takes them: only as many as still fit, each checked for type
 * and size first (refusals are toasted), uploaded together; the uploads keep the order picked.
 */
export async function uploadImages(picked: readonly File[], attachedImages: number): Promise<MessageFile[]> {
  const { accepted, overLimit } = fitToLimit(attachedImages, picked);
  if (overLimit > 0) toast('warning', i18n.t('chat:image.limit', { max: MAX_IMAGES_PER_MESSAGE }));
  const valid = accepted.filter((file) => {
    const problem = checkImageFile(file);
    if (problem) toast('error', i18n.t(problem === 'size' ? 'chat:image.tooLarge' : 'chat:image.badType'));
    return !problem;
  });
  if (valid.length === 0) return [];
  const results = await Promise.allSettled(valid.map((file) => chatApi.uploadImage(file)));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) toast('error', errorText(failed.reason, 'chat:image.uploadFailed'));
  return results.flatMap((r) => (r.status === 'fulfilled' ? [asMessageFile(r.value)] : []));
}

/**
 * Documents: as many as fit beside the attached ones, uploaded together. A refused upload
 * (too large, a type the server does not read, the storage quota) is toasted with its reason.
 */
export async function uploadDocuments(
  picked: readonly File[],
  attached: readonly MessageFile[],
): Promise<MessageFile[]> {
  const room = documentRoom(attached);
  if (picked.length > room)
    toast('warning', i18n.t('chat:documents.limit', { max: DOCUMENT_LIMITS.maxDocumentsPerMessage }));
  const results = await Promise.allSettled(picked.slice(0, room).map((file) => filesApi.upload(file)));
  for (const result of results) {
    if (result.status === 'rejected') toast('error', errorText(result.reason, 'chat:documents.uploadFailed'));
  }
  return results.flatMap((r) => (r.status === 'fulfilled' ? [documentAttachment(r.value)] : []));
}

/**
 * Picked, dropped or pasted files: images go as images when the model takes them (else they
 * are refused by name), the rest as documents. Resolves to what was attached, in order.
 */
export async function uploadAttachments(
  files: readonly File[],
  attached: readonly MessageFile[],
  imagesAllowed: boolean,
): Promise<MessageFile[]> {
  const { images, documents } = splitPicked(files);
  if (images.length > 0 && !imagesAllowed) toast('warning', i18n.t('chat:documents.imagesNotAllowed'));
  const [uploadedImages, uploadedDocuments] = await Promise.all([
    imagesAllowed && images.length > 0 ? uploadImages(images, imagesOf(attached).length) : Promise.resolve([]),
    documents.length > 0 ? uploadDocuments(documents, attached) : Promise.resolve([]),
  ]);
  return [...uploadedImages, ...uploadedDocuments];
}
