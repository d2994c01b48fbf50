import { pathToFileURL } from 'node:url';
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

function utf8Text(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw visionError('VISION_DOCUMENT_INVALID', 'The document is not UTF-8 text.');
  }
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

    async fetchDocument(source, signal): Promise<FetchedDocument> {
      const classified = classifySource(source);
      if (classified.kind === 'path' || classified.kind === 'fileUrl') {
        // A local document: read under the same path rules as images; its file:// URL is the
        // base its relative images resolve against.
        const absolute = toAbsolutePath(classified, options.files);
        const bytes = await readLocalFile(absolute, options.maxDocumentBytes);
        const type = /\.html?$/i.test(absolute) ? 'text/html' : /\.(md|markdown)$/i.test(absolute) ? 'text/markdown' : undefined;
        return { text: utf8Text(bytes), finalUrl: pathToFileURL(absolute).href, ...(type ? { contentType: type } : {}) };
      }
      if (classified.kind !== 'url') throw visionError('VISION_DOCUMENT_INVALID', 'Pass the document as a URL, a local file path, or its text.');
      const fetched = await fetchUrl(classified.url, options.maxDocumentBytes, options.http, signal);
      return { text: utf8Text(fetched.bytes), finalUrl: fetched.finalUrl, ...(fetched.contentType ? { contentType: fetched.contentType } : {}) };
    },
  };
}
