/**
 * Second public entry of the cadgen slice: its database migrations and nothing else, so a
 * composition root can build the app's migration list without loading the generation engine
 * (schemas, verifiers, OpenCascade wiring). Imports only migration modules.
 */
export { cadgenInvocationRecordMigration, cadgenLeaseMigration, cadgenMigrations, cadgenUsageAttemptsMigration } from './adapters/store/migrations';
