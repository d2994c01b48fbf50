import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../platform/db/openDatabase';
import { visionMigrations, visionTilesMigration } from './sessionMigrations';
import { createSqliteSessionRepository } from './sqliteSessionRepository';

describe('sqliteSessionRepository image blobs', () => {
  it('serves a blob that matches its sha256 and reports one that does not as STORE_CORRUPT', () => {
    const { db } = openDatabase({ file: path.join(mkdtempSync(path.join(tmpdir(), 'vision-blobs-')), 'cadsight.db'), migrations: [...visionMigrations, visionTilesMigration] });
    try {
      const good = Buffer.from('image bytes');
      const sha = createHash('sha256').update(good).digest('hex');
      db.prepare('INSERT INTO vision_blobs (sha256, bytes) VALUES (?, ?)').run(sha, good);
      const repository = createSqliteSessionRepository(db);
      expect(Buffer.from(repository.imageBytes(sha))).toEqual(good);
      // A damaged page or an edited row: the bytes under the name are not the image any more.
      db.prepare('UPDATE vision_blobs SET bytes = ? WHERE sha256 = ?').run(Buffer.from('other bytes'), sha);
      expect(() => repository.imageBytes(sha)).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }));
    } finally {
      db.close();
    }
  });
});
