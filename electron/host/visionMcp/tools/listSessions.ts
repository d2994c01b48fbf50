import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { usageSchema } from '../schemas';
import { toolFailure, toolSuccess, usageView } from '../toolResult';
import type { ToolContext } from './toolContext';

/** list_sessions: a snapshot of every session (also those the desktop app created). */
export function registerListSessions(server: McpServer, { service, log }: ToolContext): void {
  server.registerTool(
    'list_sessions',
    {
      title: 'List vision sessions',
      description: 'Lists the vision sessions with their summary, image sources (shortened), last access, iteration count and usage totals.',
      inputSchema: {},
      outputSchema: {
        sessions: z.array(
          z.object({
            session_id: z.string(),
            summary: z.string(),
            image_sources: z.array(z.string()),
            created_at: z.string(),
            last_access_at: z.number().describe('Last access as epoch milliseconds (picsense type).'),
            last_access_at_iso: z.string().describe('The same instant as an ISO 8601 string.'),
            iteration: z.number().int(),
            image_count: z.number().int(),
            usage: usageSchema,
          }),
        ),
      },
      annotations: { readOnlyHint: true },
    },
    async () => {
      try {
        const sessions = service.listSessions().map((s) => ({
          session_id: s.id,
          summary: s.summary,
          image_sources: s.sources,
          created_at: new Date(s.createdAt).toISOString(),
          last_access_at: s.lastAccessAt,
          last_access_at_iso: new Date(s.lastAccessAt).toISOString(),
          iteration: s.iterations,
          image_count: s.imageCount,
          usage: usageView(s.usage),
        }));
        return toolSuccess({ sessions });
      } catch (error) {
        return toolFailure(error, log, 'list_sessions');
      }
    },
  );
}
