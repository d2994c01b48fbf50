import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { usageSchema, verboseArg } from '../schemas';
import { toolFailure, toolSuccess, usageView } from '../toolResult';
import type { ToolContext } from './toolContext';

/** list_sessions: a snapshot of every session (also those the desktop app created). */
export function registerListSessions(server: McpServer, { service, log, verbose }: ToolContext): void {
  server.registerTool(
    'list_sessions',
    {
      title: 'List vision sessions',
      description: 'List vision sessions: summary, sources, last access, turns.',
      inputSchema: { verbose: verboseArg },
      outputSchema: {
        sessions: z.array(
          z.object({
            session_id: z.string(),
            summary: z.string(),
            image_sources: z.array(z.string()),
            created_at: z.string(),
            last_access_at: z.number(),
            last_access_at_iso: z.string(),
            iteration: z.number(),
            image_count: z.number(),
            usage: usageSchema.optional(),
          }),
        ),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
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
          ...(verbose || args.verbose === true ? { usage: usageView(s.usage) } : {}),
        }));
        return toolSuccess({ sessions });
      } catch (error) {
        return toolFailure(error, log, 'list_sessions');
      }
    },
  );
}
