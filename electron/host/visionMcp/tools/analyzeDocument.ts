import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { usageSchema, verboseArg } from '../schemas';
import { progressReporter, toolFailure, toolSuccess, usageView } from '../toolResult';
import type { ToolContext } from './toolContext';

/** analyze_document: annotates every image of a markdown/HTML document with its description. */
export function registerAnalyzeDocument(server: McpServer, { service, log, verbose }: ToolContext): void {
  server.registerTool(
    'analyze_document',
    {
      title: 'Annotate the images of a document',
      description:
        'Return a document (URL, local .md/.html/.pdf path, or markdown/HTML text) with <!-- image-vision: ... --> after each image. ' +
        'Relative images resolve against the document.',
      inputSchema: {
        document: z.string().min(1).max(5_000_000),
        prompt: z.string().min(1).max(20_000).optional(),
        max_images: z.number().int().min(1).max(100).optional(),
        pdf_pages: z.string().max(200).optional(),
        verbose: verboseArg,
      },
      outputSchema: {
        document: z.string(),
        images_analyzed: z.number(),
        failed: z.array(z.object({ source: z.string(), code: z.string(), message: z.string() })),
        format: z.enum(['html', 'markdown']),
        usage: usageSchema.optional(),
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
        const withUsage = verbose || args.verbose === true;
        return toolSuccess({ document: result.document, images_analyzed: result.imagesAnalyzed, failed: result.failed, format: result.format, ...(withUsage ? { usage: usageView(result.usage) } : {}) });
      } catch (error) {
        return toolFailure(error, log, 'analyze_document');
      }
    },
  );
}
