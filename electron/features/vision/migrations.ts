/**
 * Second public entry of the vision slice: its database migrations and nothing else, so a
 * composition root can build the app's migration list without loading the engine, sharp or
 * pdf.js (the vision MCP server's cold start). Imports only migration modules.
 */
export { visionMigrations, visionTilesMigration } from './adapters/sessionMigrations';
