import type { AppErrorData } from '../../../shared/errors';
import { VISION_MAX_UPLOAD_BYTES, VISION_MAX_UPLOAD_IMAGES, VISION_MAX_UPLOAD_TOTAL_BYTES } from '../../../shared/ipc/contracts/vision';
import type { MessageKey } from '../../i18n/messages';
import type { PendingUpload } from '../../store/visionSlice';
import { base64Bytes, uploadProblem } from './uploadIntegrity';

const MB = 1024 * 1024;
const megabytes = (bytes: number): string => (bytes / MB).toFixed(1);

/**
 * A typed error made in the view (before anything is sent): the same code the engine would
 * use, plus the catalog key and parameters the view formats it with.
 */
function uploadError(code: string, message: string, messageKey: MessageKey, params: Record<string, string | number>): AppErrorData {
  return { code, message, retryable: false, data: { messageKey, params } };
}

/**
 * Checks the limits of the next question from the file sizes alone, so an oversized image is
 * refused before it is read into memory. Returns null when `incoming` may be added.
 */
export function checkUploadLimits(pending: readonly { size: number }[], incoming: readonly { name: string; size: number }[]): AppErrorData | null {
  if (pending.length + incoming.length > VISION_MAX_UPLOAD_IMAGES) {
    return uploadError('VISION_TOO_MANY_IMAGES', `At most ${VISION_MAX_UPLOAD_IMAGES} images per question.`, 'vision.upload.tooMany', { max: VISION_MAX_UPLOAD_IMAGES });
  }
  const tooLarge = incoming.find((file) => file.size > VISION_MAX_UPLOAD_BYTES);
  if (tooLarge) {
    return uploadError('VISION_IMAGE_TOO_LARGE', `${tooLarge.name} is over the ${VISION_MAX_UPLOAD_BYTES}-byte limit.`, 'vision.upload.tooLarge', {
      name: tooLarge.name,
      mb: megabytes(tooLarge.size),
      limit: megabytes(VISION_MAX_UPLOAD_BYTES),
    });
  }
  const total = [...pending, ...incoming].reduce((sum, file) => sum + file.size, 0);
  if (total > VISION_MAX_UPLOAD_TOTAL_BYTES) {
    return uploadError('VISION_IMAGE_TOO_LARGE', `The images total more than ${VISION_MAX_UPLOAD_TOTAL_BYTES} bytes.`, 'vision.upload.totalTooLarge', {
      limit: megabytes(VISION_MAX_UPLOAD_TOTAL_BYTES),
    });
  }
  return null;
}

/** Reads one file as base64 (the data URL's payload). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/**
 * Dropped, pasted or picked files -> uploads, or the typed error that refused them all (limits).
 * A damaged or non-image file is left out and named in `error`; the good files of the same drop are kept.
 */
export async function readImageFiles(
  pending: readonly PendingUpload[],
  files: readonly File[],
): Promise<{ uploads: Omit<PendingUpload, 'id'>[]; error?: AppErrorData } | { error: AppErrorData }> {
  // Pasted screenshots are often all called "image.png": number them so labels stay distinct.
  const named = files.map((file, index) => ({ file, name: file.name || `pasted-${pending.length + index + 1}.png` }));
  const refused = checkUploadLimits(pending, named.map(({ file, name }) => ({ name, size: file.size })));
  if (refused) return { error: refused };
  const uploads: Omit<PendingUpload, 'id'>[] = [];
  const bad: string[] = [];
  let badCode = 'VISION_IMAGE_CORRUPT';
  for (const { file, name } of named) {
    let dataBase64: string;
    try {
      dataBase64 = await readBase64(file);
    } catch {
      return { error: uploadError('VISION_SOURCE_INVALID', `${name} could not be read.`, 'vision.upload.unreadable', { name }) };
    }
    const problem = uploadProblem(base64Bytes(dataBase64));
    if (problem) {
      bad.push(name);
      if (problem === 'notImage') badCode = 'VISION_UNSUPPORTED_FORMAT';
      continue;
    }
    uploads.push({ name, size: file.size, dataBase64, ...(file.type ? { mimeType: file.type } : {}) });
  }
  if (bad.length === 0) return { uploads };
  const names = bad.join(', ');
  return { uploads, error: uploadError(badCode, `${names}: damaged, truncated or not an image.`, 'vision.upload.damaged', { name: names }) };
}
