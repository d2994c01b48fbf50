import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { registerAnalyzeDocument } from './tools/analyzeDocument';
import { registerAnalyzeImages } from './tools/analyzeImages';
import { registerAnalyzeVideo } from './tools/analyzeVideo';
import { registerListSessions } from './tools/listSessions';
import type { ToolContext } from './tools/toolContext';
import { registerZoomImage } from './tools/zoomImage';

/**
 * The SDK's Ajv validator, built when a schema is first validated: the server constructs one at
 * start otherwise (an Ajv instance compiles its meta-schemas), and it is only used for
 * elicitation results, which cadsight-vision never requests.
 */
function validatorOnFirstUse(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}

/** The cadsight-vision MCP server with its five tools (transport attached by the caller). */
export function createVisionMcpServer(context: ToolContext, version: string): McpServer {
  const server = new McpServer({ name: 'cadsight-vision', version }, { capabilities: { tools: {} }, jsonSchemaValidator: validatorOnFirstUse() });
  registerAnalyzeImages(server, context);
  registerZoomImage(server, context);
  registerAnalyzeDocument(server, context);
  registerListSessions(server, context);
  registerAnalyzeVideo(server, context);
  return server;
}
