import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAnalyzeDocument } from './tools/analyzeDocument';
import { registerAnalyzeImages } from './tools/analyzeImages';
import { registerAnalyzeVideo } from './tools/analyzeVideo';
import { registerListSessions } from './tools/listSessions';
import type { ToolContext } from './tools/toolContext';
import { registerZoomImage } from './tools/zoomImage';

/** The cadsight-vision MCP server with its five tools (transport attached by the caller). */
export function createVisionMcpServer(context: ToolContext, version: string): McpServer {
  const server = new McpServer({ name: 'cadsight-vision', version }, { capabilities: { tools: {} } });
  registerAnalyzeImages(server, context);
  registerZoomImage(server, context);
  registerAnalyzeDocument(server, context);
  registerListSessions(server, context);
  registerAnalyzeVideo(server, context);
  return server;
}
