import { AppError } from '../../../shared/errors';
import type { ToolDescriptor, ToolResult } from '../../features/cadlink/index';
import type { ToolProvider } from '../../features/cadlink/index';

/**
 * A small, deterministic ToolProvider for CadLink tests: read tools (echo, drawing info, a
 * screenshot of any size, a slow tool), write tools named like the plugin's, a tool that fails
 * with isError and one that throws. Every call that reaches it is recorded, which is how tests
 * prove that a refused call never reached the wire.
 */
export interface RecordingToolProvider extends ToolProvider {
  /** Names (and arguments) of every tools/call that arrived, in order. */
  readonly calls: Array<{ name: string; args: Record<string, unknown> }>;
}

const objectSchema = { type: 'object', additionalProperties: true };

export const TEST_PEER_TOOLS: ToolDescriptor[] = [
  { name: 'echo', description: 'Returns its arguments as JSON text.', inputSchema: objectSchema },
  { name: 'get_drawing_info', description: 'Drawing summary.', inputSchema: objectSchema },
  { name: 'get_screenshot', description: 'A PNG-typed image of `bytes` bytes (base64).', inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } } } },
  { name: 'slow', description: 'Answers after `ms` milliseconds.', inputSchema: { type: 'object', properties: { ms: { type: 'integer' } } } },
  { name: 'fail', description: 'Always fails with isError.', inputSchema: objectSchema },
  { name: 'explode', description: 'Throws an AppError (becomes a JSON-RPC error).', inputSchema: objectSchema },
  { name: 'add_text', description: 'Write tool.', inputSchema: objectSchema },
  { name: 'add_leader_annotation', description: 'Write tool.', inputSchema: objectSchema },
  { name: 'save_drawing', description: 'Write tool.', inputSchema: objectSchema },
];

export function createRecordingToolProvider(): RecordingToolProvider {
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  return {
    calls,
    async listTools() {
      return TEST_PEER_TOOLS;
    },
    async callTool(name, args): Promise<ToolResult> {
      calls.push({ name, args });
      switch (name) {
        case 'echo':
          return { content: [{ type: 'text', text: JSON.stringify(args) }] };
        case 'get_drawing_info':
          return { content: [{ type: 'text', text: JSON.stringify({ version: 'AC1032', units: 'mm', title: '审图测试' }) }] };
        case 'get_screenshot': {
          const bytes = typeof args.bytes === 'number' ? args.bytes : 64;
          return { content: [{ type: 'image', data: Buffer.alloc(bytes, 7).toString('base64'), mimeType: 'image/png' }, { type: 'text', text: `bytes=${bytes}` }] };
        }
        case 'slow':
          await new Promise((resolve) => setTimeout(resolve, typeof args.ms === 'number' ? args.ms : 100));
          return { content: [{ type: 'text', text: 'slow done' }] };
        case 'fail':
          return { content: [{ type: 'text', text: '没有选中的实体 (nothing selected)' }], isError: true };
        case 'explode':
          throw new AppError('CAD_TEST_EXPLODED', 'The test tool exploded on purpose.');
        case 'add_text':
        case 'add_leader_annotation':
        case 'save_drawing':
          return { content: [{ type: 'text', text: `${name} done` }] };
        default:
          return { content: [{ type: 'text', text: `Unknown tool: ${name}` }], isError: true };
      }
    },
  };
}
