import { z } from 'zod';
import { AppError, toAppErrorData } from '../../../../../shared/errors';
import type { ToolDescriptor, ToolResult } from '../../domain/protocol/mcpTools';
import type { ToolProvider } from '../../ports/toolProvider';
import { portableSchema } from './portableSchema';
import { DxfSession, type DxfBackendDeps, type DxfTool } from './session';
import { addLeaderAnnotation } from './tools/addLeaderAnnotation';
import { addRevisionCloud } from './tools/addRevisionCloud';
import { addText } from './tools/addText';
import { findDuplicatesTool } from './tools/findDuplicates';
import { findFramesTool } from './tools/findFramesTool';
import { findZeroLengthTool } from './tools/findZeroLength';
import { getBlocks } from './tools/getBlocks';
import { getDimensions } from './tools/getDimensions';
import { getDrawingInfo } from './tools/getDrawingInfo';
import { getEntities } from './tools/getEntities';
import { getEntity } from './tools/getEntity';
import { getLayers } from './tools/getLayers';
import { getScreenshot } from './tools/getScreenshot';
import { getTexts } from './tools/getTexts';
import { saveDrawing } from './tools/saveDrawing';

const TOOLS: DxfTool[] = [getDrawingInfo, getLayers, getEntities, getEntity, getTexts, getDimensions, getBlocks, findFramesTool, findZeroLengthTool, findDuplicatesTool, getScreenshot, addLeaderAnnotation, addText, addRevisionCloud, saveDrawing] as DxfTool[];

/** Names of the tools that only read (the rest write). */
export const DXF_READ_TOOLS = TOOLS.filter((t) => !/^(add_|save_)/.test(t.name)).map((t) => t.name);

function errorResult(error: unknown): ToolResult {
  const data = toAppErrorData(error);
  return { content: [{ type: 'text', text: JSON.stringify(data) }], isError: true };
}

/**
 * The embedded DXF backend as a ToolProvider: the same tools/list + tools/call surface as the
 * AutoCAD plugin. Bad arguments (CAD_BAD_ARGUMENTS), unknown tools (CAD_UNKNOWN_TOOL) and
 * tool failures (CAD_DXF_*) come back as `isError` results with `{code, message}` JSON text.
 */
export function createDxfToolProvider(deps: DxfBackendDeps): ToolProvider & { session: DxfSession } {
  const session = new DxfSession(deps);
  const descriptors: ToolDescriptor[] = TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: portableSchema(z.toJSONSchema(t.input, { io: 'input' })) as Record<string, unknown> }));
  return {
    session,
    async listTools() {
      return descriptors;
    },
    async callTool(name, args) {
      const tool = TOOLS.find((t) => t.name === name);
      if (!tool) return errorResult(new AppError('CAD_UNKNOWN_TOOL', `unknown tool "${name}"; tools: ${TOOLS.map((t) => t.name).join(', ')}`));
      const parsed = tool.input.safeParse(args ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return errorResult(new AppError('CAD_BAD_ARGUMENTS', `${name}: ${issue ? `${issue.path.join('.') || 'arguments'}: ${issue.message}` : 'invalid arguments'}`));
      }
      try {
        return await tool.run(session, parsed.data);
      } catch (error) {
        return errorResult(error);
      }
    },
  };
}
