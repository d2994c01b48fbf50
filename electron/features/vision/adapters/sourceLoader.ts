import { decodeBase64 } from '../domain/base64';
import { visionError } from '../domain/errors';
import { classifySource, shortenSource } from '../domain/sourceClassifier';
import type { FetchedDocument, ImageSourceLoader } from '../ports/imageSources';
import { fetchUrl, type HttpFetchOptions } from './httpFetcher';
import { createLocalFileReader, toAbsolutePath, type LocalFileOptions } from './localFileReader';

export interface SourceLoaderOptions {
  http: HttpFetchOptions;
  files: LocalFileOptions;
  /** Default byte cap (MAX_IMAGE_MB) when the caller gives none. */
  maxBytes: number;
  /** Byte cap of documents fetched by URL. */
  maxDocumentBytes: number;
}

/** ImageSourceLoader over the real network and file system (see the port for error codes). */
export function createSourceLoader(options: SourceLoaderOptions): ImageSourceLoader {
  const readLocalFile = createLocalFileReader(options.files);
  return {
    async load(source, { maxBytes = options.maxBytes, signal } = {}) {
      const classified = classifySource(source);
      const label = shortenSource(source);
      switch (classified.kind) {
        case 'url':
          return { bytes: (await fetchUrl(classified.url, maxBytes, options.http, signal)).bytes, label };
        case 'path':
        case 'fileUrl':
          return { bytes: await readLocalFile(toAbsolutePath(classified, options.files), maxBytes), label };
        case 'dataUri':
          return { bytes: decodeBase64(classified.base64, maxBytes), label };
        case 'base64':
          return { bytes: decodeBase64(classified.base64, maxBytes), label };
      }
    },

    async fetchDocument(url, signal): Promise<FetchedDocument> {
      const fetched = await fetchUrl(url, options.maxDocumentBytes, options.http, signal);
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(fetched.bytes);
      } catch {
        throw visionError('VISION_DOCUMENT_INVALID', 'The document is not UTF-8 text.');
      }
      return { text, finalUrl: fetched.finalUrl, ...(fetched.contentType ? { contentType: fetched.contentType } : {}) };
    },
  };
}
