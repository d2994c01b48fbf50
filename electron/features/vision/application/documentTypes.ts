import type { LlmGateway } from '../../../platform/llm/types';
import type { UsageTotals } from '../domain/session';
import type { IntakeDeps } from './imageIntake';

export interface DocumentResult {
  /** The document with ` <!-- image-vision: ... -->` after every image. */
  document: string;
  format: 'html' | 'markdown';
  imagesAnalyzed: number;
  failed: Array<{ source: string; code: string; message: string }>;
  usage: UsageTotals;
}

export interface DocumentDeps {
  gateway: LlmGateway;
  intake: IntakeDeps;
  concurrency: number;
  defaultMaxImages: number;
  maxOutputTokens: number;
}
