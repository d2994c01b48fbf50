import type { VisionService } from '../../../features/vision';
import type { Logger } from '../../../platform/log/types';

/** What every tool registration receives from the server. */
export interface ToolContext {
  service: VisionService;
  log: Logger;
  /** Results carry usage/latency even when a call does not pass verbose (CADSIGHT_VISION_VERBOSE). */
  verbose: boolean;
}
