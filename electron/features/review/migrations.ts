/**
 * Second public entry of the review slice: its database migrations and nothing else, so a
 * composition root can build the app's migration list without loading the review engine and
 * the drawing renderer it depends on (canvas, fonts). Imports only migration modules.
 */
export { reviewMigrations } from './adapters/reviewMigrations';
