import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { turnOutputShape } from '../schemas';
import { toolFailure, toolSuccess, turnView } from '../toolResult';
import type { ToolContext } from './toolContext';

const fraction = z.number().min(0).max(1);

/** zoom_image: crops a session image at full original resolution and asks about the crop. */
export function registerZoomImage(server: McpServer, { service, log }: ToolContext): void {
  server.registerTool(
    'zoom_image',
    {
      title: 'Zoom into an image region',
      description:
        'Follow-up within a session: crops one session image at its full original resolution (region as fractions 0..1 of width/height) ' +
        'and asks the prompt about that region. Use it to read small text or details.',
      inputSchema: {
        session_id: z.string().min(1).max(200),
        image_index: z.number().int().min(0).describe('0-based index of the session image (image_indexes of earlier results).'),
        region: z
          .object({ x: fraction, y: fraction, width: fraction, height: fraction })
          .describe('Region as fractions of the image: x, y = top-left corner; width, height = size.'),
        prompt: z.string().min(1).max(20_000),
      },
      outputSchema: turnOutputShape,
      annotations: { readOnlyHint: true },
    },
    async (args, extra) => {
      try {
        const result = await service.zoomImage({ sessionId: args.session_id, imageIndex: args.image_index, region: args.region, prompt: args.prompt }, { signal: extra.signal });
        return toolSuccess(turnView(result));
      } catch (error) {
        return toolFailure(error, log, 'zoom_image');
      }
    },
  );
}
