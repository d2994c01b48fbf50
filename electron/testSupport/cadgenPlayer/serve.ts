// Test-support binary: a scripted author/reviewer for one eval fixture, over real HTTP.
// Usage: node dist/node/scriptedCadgenProvider.js --fixture <id> [--faults <name>]
// Prints one JSON line {"apiBaseUrl": "..."} on stdout and serves until SIGTERM/SIGINT.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startScriptedProvider } from '../scriptedProvider/server';
import { createFixturePlayer, type GenFixture } from './player';
import { FAULT_SCENARIOS } from './faults';

const { values } = parseArgs({ options: { fixture: { type: 'string' }, faults: { type: 'string' }, dir: { type: 'string' } }, strict: true });
const dir = values.dir ?? path.resolve('resources/evals/cadgen/v1');
const fixture = JSON.parse(readFileSync(path.join(dir, `${values.fixture ?? 'flange'}.json`), 'utf8')) as GenFixture;
const faults = values.faults ? FAULT_SCENARIOS[values.faults]?.faults : {};
if (faults === undefined) throw new Error(`unknown fault scenario ${values.faults}`);
// Strict tools are held to OpenAI's rules, so every run shows the product's strict schemas are accepted.
const provider = await startScriptedProvider({ script: createFixturePlayer(fixture, faults), enforceOpenAiStrict: true });
process.stdout.write(`${JSON.stringify({ apiBaseUrl: provider.apiBaseUrl })}\n`);
const stop = (): void => void provider.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
