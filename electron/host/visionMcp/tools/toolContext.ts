import type { VisionService } from '../../../features/vision';
import type { Logger } from '../../../platform/log/types';

/** What every tool registration receives from the server. */
export interface ToolContext {
  service: VisionService;
  log: Logger;
}
