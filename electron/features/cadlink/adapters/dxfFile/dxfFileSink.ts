import { writeFile, rename } from 'node:fs/promises';
import { AppError } from '../../../../../shared/errors';
import type { DxfDrawingSink } from '../../application/dxfBackend/session';
import { createLegacyEncoder, type TextEncodingChoice } from '../../../drawing';

/**
 * Saves drawing text in the encoding the file was read with (UTF-8 for R2007+, the legacy code
 * page otherwise, with `\U+XXXX` for characters it lacks). Written to a temp file then renamed so
 * a failed write never leaves half a drawing.
 */
export function createDxfFileSink(encoding: TextEncodingChoice): DxfDrawingSink {
  const encode = encoding.encoding === 'utf-8' ? (text: string): Uint8Array => Buffer.from(text, 'utf8') : createLegacyEncoder(encoding.encoding);
  return {
    async save(path, dxfText) {
      const bytes = encode(dxfText);
      const temp = `${path}.${process.pid}.tmp`;
      try {
        await writeFile(temp, bytes);
        await rename(temp, path);
      } catch (cause) {
        throw new AppError('CAD_DXF_SAVE_FAILED', `cannot write ${path}`, { cause, data: { path } });
      }
      return { path, bytes: bytes.byteLength };
    },
  };
}
