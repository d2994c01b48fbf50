import { describe, expect, it } from 'vitest';
import { VISION_MAX_UPLOAD_BYTES, VISION_MAX_UPLOAD_IMAGES, VISION_MAX_UPLOAD_TOTAL_BYTES } from '../../../shared/ipc/contracts/vision';
import { checkUploadLimits, readImageFiles } from './readImages';

describe('reading dropped images', () => {
  it('refuses an image over the byte limit by its size, before reading it', () => {
    const error = checkUploadLimits([], [{ name: 'scan.png', size: VISION_MAX_UPLOAD_BYTES + 1 }]);
    expect(error).toMatchObject({ code: 'VISION_IMAGE_TOO_LARGE', data: { messageKey: 'vision.upload.tooLarge', params: { name: 'scan.png' } } });
    expect(checkUploadLimits([], [{ name: 'ok.png', size: VISION_MAX_UPLOAD_BYTES }])).toBeNull();
  });

  it('refuses more images than one question may carry, and a total over the message budget', () => {
    const many = Array.from({ length: VISION_MAX_UPLOAD_IMAGES + 1 }, (_, i) => ({ name: `${i}.png`, size: 10 }));
    expect(checkUploadLimits([], many)?.code).toBe('VISION_TOO_MANY_IMAGES');
    const pending = [{ size: VISION_MAX_UPLOAD_TOTAL_BYTES - 10 }];
    expect(checkUploadLimits(pending, [{ name: 'x.png', size: 11 }])).toMatchObject({ data: { messageKey: 'vision.upload.totalTooLarge' } });
  });

  it('reads files as base64 and names unnamed pasted images', async () => {
    // A PNG signature and its end chunk: the smallest file that passes the completeness check.
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
    const read = await readImageFiles([], [new File([bytes], 'a.png', { type: 'image/png' }), new File([bytes], '', { type: '' })]);
    expect(read).toEqual({
      uploads: [
        { name: 'a.png', size: 20, mimeType: 'image/png', dataBase64: btoa(String.fromCharCode(...bytes)) },
        { name: 'pasted-2.png', size: 20, dataBase64: btoa(String.fromCharCode(...bytes)) },
      ],
    });
  });

  it('keeps the good files of a drop and names the truncated or non-image ones in a typed error', async () => {
    const good = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
    const truncated = good.subarray(0, 14);
    const text = new TextEncoder().encode('not an image at all');
    const read = await readImageFiles([], [new File([good], 'ok.png'), new File([truncated], 'cut.png'), new File([text], 'notes.png')]);
    expect('uploads' in read && read.uploads.map((u) => u.name)).toEqual(['ok.png']);
    expect(read.error).toMatchObject({ code: 'VISION_UNSUPPORTED_FORMAT', data: { messageKey: 'vision.upload.damaged', params: { name: 'cut.png, notes.png' } } });
  });
});
