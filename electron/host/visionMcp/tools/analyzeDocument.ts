import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { usageSchema } from '../schemas';
import { progressReporter, toolFailure, toolSuccess, usageView } from '../toolResult';
import type { ToolContext } from './toolContext';

/** analyze_document: annotates every image of a markdown/HTML document with its description. */
export function registerAnalyzeDocument(server: McpServer, { service, log }: ToolContext): void {
  server.registerTool(
    'analyze_document',
    {
      title: 'Annotate the images of a document',
      description:
        'Parses a document (http(s) URL, HTML or markdown), analyses each distinct image once, and returns the whole document with ' +
        '<!-- image-vision: ... --> after every image. Relative image URLs resolve against the document URL; local paths in an inline document ' +
        'are read under the same rules as analyze_images. A .pdf URL or path is annotated page by page (pages chosen with pdf_pages).',
      inputSchema: {
        document: z.string().min(1).max(5_000_000).describe('Document URL, HTML or markdown text.'),
        prompt: z.string().min(1).max(20_000).optional().describe('Instruction applied to every image (default: a concise description).'),
        max_images: z.number().int().min(1).max(100).optional().describe('Most distinct images to analyse (default 20).'),
        pdf_pages: z.string().max(200).optional().describe('For a PDF document: pages to analyse, e.g. "1-3,5" (default all, at most SESSION_MAX_IMAGES).'),
      },
      outputSchema: {
        document: z.string(),
        images_analyzed: z.number().int(),
        failed: z.array(z.object({ source: z.string(), code: z.string(), message: z.string() })),
        format: z.enum(['html', 'markdown']),
        usage: usageSchema,
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      try {
        const onProgress = progressReporter(extra);
        const result = await service.analyzeDocument(
          { document: args.document, ...(args.prompt ? { prompt: args.prompt } : {}), ...(args.max_images ? { maxImages: args.max_images } : {}), ...(args.pdf_pages ? { pdfPages: args.pdf_pages } : {}) },
          { signal: extra.signal, ...(onProgress ? { onProgress } : {}) },
        );
        return toolSuccess({ document: result.document, images_analyzed: result.imagesAnalyzed, failed: result.failed, format: result.format, usage: usageView(result.usage) });
      } catch (error) {
        return toolFailure(error, log, 'analyze_document');
      }
    },
  );
}
