import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MCP_MAX_INLINE_BASE64_BYTES } from '../../mcpStdio/lineStdioTransport';
import { turnOutputShape, verboseArg } from '../schemas';
import { progressReporter, toolFailure, toolSuccess, turnView } from '../toolResult';
import type { ToolContext } from './toolContext';

/** analyze_images: picsense's core tool, with follow-ups that really re-send the images. */
export function registerAnalyzeImages(server: McpServer, { service, log, verbose }: ToolContext): void {
  server.registerTool(
    'analyze_images',
    {
      title: 'Analyze images',
      description:
        'Answer a question about images (several = compare). Returns session_id: pass it with a new prompt for follow-ups ' +
        '(images are kept; add only new ones). PDFs add one image per page.',
      inputSchema: {
        image_sources: z
          .array(z.string().min(1).max(20_000_000))
          .max(16)
          // The stdio line carries the whole call: inline images must fit it with room to spare.
          .refine((sources) => sources.reduce((sum, s) => sum + s.length, 0) <= MCP_MAX_INLINE_BASE64_BYTES, {
            message: `Inline images total more than ${MCP_MAX_INLINE_BASE64_BYTES} characters; pass large images as file paths or URLs instead of base64.`,
          })
          .optional()
          .describe('URLs, file paths, data URIs or base64. Required without session_id.'),
        prompt: z.string().min(1).max(20_000),
        session_id: z.string().min(1).max(200).optional(),
        pdf_pages: z.string().max(200).optional().describe('PDF pages, e.g. "1-3,5".'),
        verbose: verboseArg,
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
        return toolSuccess(turnView(result, verbose || args.verbose === true));
      } catch (error) {
        return toolFailure(error, log, 'analyze_images');
      }
    },
  );
}
