import type { Migration } from '../../platform/db/types';
// The slices' migrations entries, not their index.ts: whoever needs only the list (the vision MCP
// server at start-up) must not load every slice's engine and native modules with it.
import { cadgenInvocationRecordMigration, cadgenLeaseMigration, cadgenMigrations, cadgenUsageAttemptsMigration } from '../../features/cadgen/migrations';
import { reviewMigrations } from '../../features/review/migrations';
import { visionMigrations, visionTilesMigration } from '../../features/vision/migrations';

/**
 * The one, append-only migration list of the CadSight database. `user_version` counts applied
 * entries, so new migrations are only ever added at the END (whatever their slice); never
 * reorder, rename or edit an entry that has shipped.
 */
export const allMigrations: readonly Migration[] = [...visionMigrations, ...reviewMigrations, ...cadgenMigrations, visionTilesMigration, cadgenLeaseMigration, cadgenUsageAttemptsMigration, cadgenInvocationRecordMigration];
