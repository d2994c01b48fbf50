import type { Migration } from '../../../platform/db/types';

/**
 * Vision tables. Image bytes live in a content-addressed blob table (sha256 key), so an image
 * shared by turns or sessions is stored once and survives restarts with its session.
 */
export const visionMigrations: Migration[] = [
  {
    id: 'vision-001-sessions',
    up(db) {
      db.exec(`
        CREATE TABLE vision_sessions (
          id TEXT PRIMARY KEY,
          summary TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          last_access_at INTEGER NOT NULL,
          provider_id TEXT NOT NULL,
          model TEXT NOT NULL,
          usage_json TEXT NOT NULL
        ) STRICT;
        CREATE INDEX vision_sessions_last_access ON vision_sessions(last_access_at);
        CREATE TABLE vision_blobs (
          sha256 TEXT PRIMARY KEY,
          bytes BLOB NOT NULL
        ) STRICT;
        CREATE TABLE vision_images (
          session_id TEXT NOT NULL REFERENCES vision_sessions(id) ON DELETE CASCADE,
          idx INTEGER NOT NULL,
          origin TEXT NOT NULL,
          label TEXT NOT NULL,
          original_sha256 TEXT NOT NULL REFERENCES vision_blobs(sha256),
          original_mime TEXT NOT NULL,
          original_width INTEGER NOT NULL,
          original_height INTEGER NOT NULL,
          prepared_sha256 TEXT NOT NULL REFERENCES vision_blobs(sha256),
          prepared_mime TEXT NOT NULL,
          prepared_width INTEGER NOT NULL,
          prepared_height INTEGER NOT NULL,
          PRIMARY KEY (session_id, idx)
        ) STRICT;
        CREATE INDEX vision_images_original ON vision_images(original_sha256);
        CREATE INDEX vision_images_prepared ON vision_images(prepared_sha256);
        CREATE TABLE vision_turns (
          session_id TEXT NOT NULL REFERENCES vision_sessions(id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          kind TEXT NOT NULL,
          prompt TEXT NOT NULL,
          image_indexes_json TEXT NOT NULL,
          reply TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          usage_json TEXT NOT NULL,
          PRIMARY KEY (session_id, seq)
        ) STRICT;
      `);
    },
  },
];

/**
 * What some images carry beyond their bytes, as JSON (NULL = nothing): the tiles of a very
 * wide/tall image and the text layer of a PDF page. A separate entry because the app's
 * migration list is append-only: it goes at the END of allMigrations, after the review slice's
 * shipped entries.
 */
export const visionTilesMigration: Migration = {
  id: 'vision-002-image-extras',
  up(db) {
    db.exec('ALTER TABLE vision_images ADD COLUMN extras_json TEXT');
  },
};
