import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { turnOutputShape } from '../schemas';
import { progressReporter, toolFailure, toolSuccess, turnView } from '../toolResult';
import type { ToolContext } from './toolContext';

/** analyze_video: frames sampled by a system ffmpeg, asked about within a session. */
export function registerAnalyzeVideo(server: McpServer, { service, log }: ToolContext): void {
  server.registerTool(
    'analyze_video',
    {
      title: 'Analyze a video',
      description: 'Samples frames of a video (local path or http(s) URL) with the system ffmpeg and asks the prompt about them. Returns a session_id for follow-ups.',
      inputSchema: {
        video_source: z.string().min(1).max(10_000).describe('Local video path or http(s) URL.'),
        prompt: z.string().min(1).max(20_000),
        session_id: z.string().min(1).max(200).optional(),
      },
      outputSchema: turnOutputShape,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      try {
        const onProgress = progressReporter(extra);
        const result = await service.analyzeVideo(
          { source: args.video_source, prompt: args.prompt, ...(args.session_id ? { sessionId: args.session_id } : {}) },
          { signal: extra.signal, ...(onProgress ? { onProgress } : {}) },
        );
        return toolSuccess(turnView(result));
      } catch (error) {
        return toolFailure(error, log, 'analyze_video');
      }
    },
  );
}
