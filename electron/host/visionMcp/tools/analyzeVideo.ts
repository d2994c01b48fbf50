import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { turnOutputShape, verboseArg } from '../schemas';
import { progressReporter, toolFailure, toolSuccess, turnView } from '../toolResult';
import type { ToolContext } from './toolContext';

/** analyze_video: frames sampled by a system ffmpeg, asked about within a session. */
export function registerAnalyzeVideo(server: McpServer, { service, log, verbose }: ToolContext): void {
  server.registerTool(
    'analyze_video',
    {
      title: 'Analyze a video',
      description: 'Ask about frames sampled from a video (path or URL; needs ffmpeg). Returns session_id.',
      inputSchema: {
        video_source: z.string().min(1).max(10_000),
        prompt: z.string().min(1).max(20_000),
        session_id: z.string().min(1).max(200).optional(),
        verbose: verboseArg,
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
        return toolSuccess(turnView(result, verbose || args.verbose === true));
      } catch (error) {
        return toolFailure(error, log, 'analyze_video');
      }
    },
  );
}
