export { startScriptedProvider } from './server';
export type { CapturedRequest, Script, ScriptedProvider, ScriptedProviderOptions, ScriptReply, ScriptStep, ScriptUsage } from './types';
export { createFakeClock, type FakeClock } from './fakeClock';
export { CONFORMING_MODEL_SCRIPT } from './conformance';
export { chatDialects, type ChatDialectId } from './dialects';
