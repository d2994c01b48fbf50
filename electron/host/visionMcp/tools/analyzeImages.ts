import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MCP_MAX_INLINE_BASE64_BYTES } from '../../mcpStdio/lineStdioTransport';
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
        'data URI or base64. A PDF source adds one image per page (with its text layer); choose pages with pdf_pages.',
      inputSchema: {
        image_sources: z
          .array(z.string().min(1).max(20_000_000))
          .max(16)
          // The stdio line carries the whole call: inline images must fit it with room to spare.
          .refine((sources) => sources.reduce((sum, s) => sum + s.length, 0) <= MCP_MAX_INLINE_BASE64_BYTES, {
            message: `Inline images total more than ${MCP_MAX_INLINE_BASE64_BYTES} characters; pass large images as file paths or URLs instead of base64.`,
          })
          .optional()
          .describe(
            `Images: http(s) URLs, local file paths, data URIs or base64 (inline data at most ${MCP_MAX_INLINE_BASE64_BYTES} characters in total; use paths for more). Required for a new session; optional on a follow-up (only new images).`,
          ),
        prompt: z.string().min(1).max(20_000).describe('What to find out about the images, written for the current task.'),
        session_id: z.string().min(1).max(200).optional().describe('Existing session id for a follow-up; omit to start a new session.'),
        pdf_pages: z
          .string()
          .max(200)
          .optional()
          .describe('Pages of PDF sources to analyse, e.g. "1-3,5" (1-based; default all, at most SESSION_MAX_IMAGES pages per call).'),
      },
      outputSchema: turnOutputShape,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      try {
        const onProgress = progressReporter(extra);
        const result = await service.analyzeImages(
          { sources: args.image_sources ?? [], prompt: args.prompt, ...(args.session_id ? { sessionId: args.session_id } : {}), ...(args.pdf_pages ? { pdfPages: args.pdf_pages } : {}) },
          { signal: extra.signal, ...(onProgress ? { onProgress } : {}) },
        );
        return toolSuccess(turnView(result));
      } catch (error) {
        return toolFailure(error, log, 'analyze_images');
      }
    },
  );
}
