import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { turnOutputShape } from '../schemas';
import { progressReporter, toolFailure, toolSuccess, turnView } from '../toolResult';
import type { ToolContext } from './toolContext';

/** analyze_images: picsense's core tool, with follow-ups that really re-send the images. */
export function registerAnalyzeImages(server: McpServer, { service, log }: ToolContext): void {
  server.registerTool(
    'analyze_images',
    {
      title: 'Analyze images',
      description:
        'Recognise image content. One image = single analysis, several = batch/compare. Multi-turn: the first call creates a session; ' +
        'pass its session_id (with just a prompt) to ask follow-ups: the session images are re-sent every turn, so image_sources may be omitted ' +
        'and only needs new images. A new session (no session_id) needs at least one source. Sources: http(s) URL, local path (~ and file:// ok), ' +
        'data URI or base64.',
      inputSchema: {
        image_sources: z
          .array(z.string().min(1).max(20_000_000))
          .max(16)
          .optional()
          .describe('Images: http(s) URLs, local file paths, data URIs or base64. Required for a new session; optional on a follow-up (only new images).'),
        prompt: z.string().min(1).max(20_000).describe('What to find out about the images, written for the current task.'),
        session_id: z.string().min(1).max(200).optional().describe('Existing session id for a follow-up; omit to start a new session.'),
      },
      outputSchema: turnOutputShape,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      try {
        const onProgress = progressReporter(extra);
        const result = await service.analyzeImages(
          { sources: args.image_sources ?? [], prompt: args.prompt, ...(args.session_id ? { sessionId: args.session_id } : {}) },
          { signal: extra.signal, ...(onProgress ? { onProgress } : {}) },
        );
        return toolSuccess(turnView(result));
      } catch (error) {
        return toolFailure(error, log, 'analyze_images');
      }
    },
  );
}
