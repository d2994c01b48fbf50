import type { Migration } from '../../platform/db/types';
import { cadgenMigrations } from '../../features/cadgen/index';
import { reviewMigrations } from '../../features/review/index';
import { visionMigrations, visionTilesMigration } from '../../features/vision/index';

/**
 * The one, append-only migration list of the CadSight database. `user_version` counts applied
 * entries, so new migrations are only ever added at the END (whatever their slice); never
 * reorder, rename or edit an entry that has shipped.
 */
export const allMigrations: readonly Migration[] = [...visionMigrations, ...reviewMigrations, ...cadgenMigrations, visionTilesMigration];
