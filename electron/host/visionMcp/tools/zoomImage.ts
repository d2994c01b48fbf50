import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { turnOutputShape, verboseArg } from '../schemas';
import { toolFailure, toolSuccess, turnView } from '../toolResult';
import type { ToolContext } from './toolContext';

const fraction = z.number().min(0).max(1);

/** zoom_image: crops a session image at full original resolution and asks about the crop. */
export function registerZoomImage(server: McpServer, { service, log, verbose }: ToolContext): void {
  server.registerTool(
    'zoom_image',
    {
      title: 'Zoom into an image region',
      description: 'Crop a session image at full resolution and ask about the region (small text, details).',
      inputSchema: {
        session_id: z.string().min(1).max(200),
        image_index: z.number().int().min(0).max(10_000).describe('From image_indexes.'),
        region: z.object({ x: fraction, y: fraction, width: fraction, height: fraction }).describe('Fractions 0..1; x, y = top-left.'),
        prompt: z.string().min(1).max(20_000),
        verbose: verboseArg,
      },
      outputSchema: turnOutputShape,
      annotations: { readOnlyHint: true },
    },
    async (args, extra) => {
      try {
        const result = await service.zoomImage({ sessionId: args.session_id, imageIndex: args.image_index, region: args.region, prompt: args.prompt }, { signal: extra.signal });
        return toolSuccess(turnView(result, verbose || args.verbose === true));
      } catch (error) {
        return toolFailure(error, log, 'zoom_image');
      }
    },
  );
}
