import { hash } from 'node:crypto';
import { AppError } from '../../../../shared/errors';
import type { SqliteDatabase } from '../../../platform/db/types';
import type { ImageOrigin, SessionImage, SessionTile, SessionListing, SessionRecord, SessionTurn, TurnKind, UsageTotals } from '../domain/session';
import type { TurnCommit, VisionSessionRepository } from '../ports/sessionRepository';

interface SessionRow {
  id: string;
  summary: string;
  created_at: number;
  last_access_at: number;
  provider_id: string;
  model: string;
  usage_json: string;
}

interface ImageRow {
  idx: number;
  origin: string;
  label: string;
  original_sha256: string;
  original_mime: string;
  original_width: number;
  original_height: number;
  prepared_sha256: string;
  prepared_mime: string;
  prepared_width: number;
  prepared_height: number;
  extras_json: string | null;
}

interface TurnRow {
  seq: number;
  kind: string;
  prompt: string;
  image_indexes_json: string;
  reply: string;
  created_at: number;
  usage_json: string;
}

const toImage = (row: ImageRow): SessionImage => ({
  index: row.idx,
  origin: row.origin as ImageOrigin,
  label: row.label,
  originalSha256: row.original_sha256,
  originalMimeType: row.original_mime,
  originalWidth: row.original_width,
  originalHeight: row.original_height,
  preparedSha256: row.prepared_sha256,
  preparedMimeType: row.prepared_mime,
  preparedWidth: row.prepared_width,
  preparedHeight: row.prepared_height,
  ...(row.extras_json ? (JSON.parse(row.extras_json) as { tiles?: SessionTile[]; text?: string }) : {}),
});

const toTurn = (row: TurnRow): SessionTurn => ({
  seq: row.seq,
  kind: row.kind as TurnKind,
  prompt: row.prompt,
  imageIndexes: JSON.parse(row.image_indexes_json) as number[],
  reply: row.reply,
  createdAt: row.created_at,
  usage: JSON.parse(row.usage_json) as UsageTotals,
});

/**
 * SQLite session repository (tables from visionMigrations + visionTilesMigration). Every turn is one IMMEDIATE
 * transaction; the MCP server and the desktop app may share the file (WAL).
 * Errors: STORE_CORRUPT (missing blob), STORE_CONFLICT (another process wrote the same turn).
 */
export function createSqliteSessionRepository(db: SqliteDatabase): VisionSessionRepository {
  const statements = {
    session: db.prepare<[string], SessionRow>('SELECT * FROM vision_sessions WHERE id = ?'),
    images: db.prepare<[string], ImageRow>('SELECT * FROM vision_images WHERE session_id = ? ORDER BY idx'),
    turns: db.prepare<[string], TurnRow>('SELECT * FROM vision_turns WHERE session_id = ? ORDER BY seq'),
    blob: db.prepare<[string], { bytes: Buffer }>('SELECT bytes FROM vision_blobs WHERE sha256 = ?'),
    insertSession: db.prepare('INSERT INTO vision_sessions (id, summary, created_at, last_access_at, provider_id, model, usage_json) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    updateSession: db.prepare('UPDATE vision_sessions SET last_access_at = ?, usage_json = ? WHERE id = ?'),
    renameSession: db.prepare('UPDATE vision_sessions SET summary = ? WHERE id = ?'),
    insertBlob: db.prepare('INSERT OR IGNORE INTO vision_blobs (sha256, bytes) VALUES (?, ?)'),
    insertImage: db.prepare(
      'INSERT INTO vision_images (session_id, idx, origin, label, original_sha256, original_mime, original_width, original_height, prepared_sha256, prepared_mime, prepared_width, prepared_height, extras_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    insertTurn: db.prepare('INSERT INTO vision_turns (session_id, seq, kind, prompt, image_indexes_json, reply, created_at, usage_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    listSessions: db.prepare<[], SessionRow & { iterations: number; image_count: number }>(
      `SELECT s.*, (SELECT COUNT(*) FROM vision_turns t WHERE t.session_id = s.id) AS iterations,
              (SELECT COUNT(*) FROM vision_images i WHERE i.session_id = s.id) AS image_count
       FROM vision_sessions s ORDER BY s.last_access_at DESC`,
    ),
    sourceLabels: db.prepare<[], { session_id: string; label: string }>("SELECT session_id, label FROM vision_images WHERE origin IN ('source', 'pdf-page') ORDER BY session_id, idx"),
    expired: db.prepare<[number], { id: string }>('SELECT id FROM vision_sessions WHERE last_access_at < ?'),
    deleteImages: db.prepare('DELETE FROM vision_images WHERE session_id = ?'),
    deleteTurns: db.prepare('DELETE FROM vision_turns WHERE session_id = ?'),
    deleteSession: db.prepare('DELETE FROM vision_sessions WHERE id = ?'),
    deleteOrphanBlobs: db.prepare(
      `DELETE FROM vision_blobs WHERE sha256 NOT IN (
         SELECT original_sha256 FROM vision_images UNION SELECT prepared_sha256 FROM vision_images
         UNION SELECT json_extract(t.value, '$.sha256') FROM vision_images i, json_each(i.extras_json, '$.tiles') t WHERE i.extras_json IS NOT NULL)`,
    ),
  };

  const commit = db.transaction((c: TurnCommit) => {
    if (c.create) {
      statements.insertSession.run(c.sessionId, c.create.summary, c.create.createdAt, c.lastAccessAt, c.create.providerId, c.create.model, JSON.stringify(c.usage));
    } else {
      statements.updateSession.run(c.lastAccessAt, JSON.stringify(c.usage), c.sessionId);
    }
    for (const image of c.newImages) {
      statements.insertBlob.run(image.originalSha256, image.originalBytes);
      // An image sent as it is has one blob for both roles.
      if (image.preparedSha256 !== image.originalSha256) statements.insertBlob.run(image.preparedSha256, image.preparedBytes);
      for (const [i, tile] of (image.tiles ?? []).entries()) statements.insertBlob.run(tile.sha256, image.tileBytes![i]!);
      statements.insertImage.run(
        c.sessionId, image.index, image.origin, image.label,
        image.originalSha256, image.originalMimeType, image.originalWidth, image.originalHeight,
        image.preparedSha256, image.preparedMimeType, image.preparedWidth, image.preparedHeight,
        image.tiles || image.text !== undefined ? JSON.stringify({ ...(image.tiles ? { tiles: image.tiles } : {}), ...(image.text !== undefined ? { text: image.text } : {}) }) : null,
      );
    }
    const t = c.turn;
    statements.insertTurn.run(c.sessionId, t.seq, t.kind, t.prompt, JSON.stringify(t.imageIndexes), t.reply, t.createdAt, JSON.stringify(t.usage));
  });

  const remove = db.transaction((id: string) => {
    statements.deleteImages.run(id);
    statements.deleteTurns.run(id);
    statements.deleteSession.run(id);
    statements.deleteOrphanBlobs.run();
  });

  return {
    get(id) {
      const row = statements.session.get(id);
      if (!row) return undefined;
      const record: SessionRecord = {
        id: row.id,
        summary: row.summary,
        createdAt: row.created_at,
        lastAccessAt: row.last_access_at,
        providerId: row.provider_id,
        model: row.model,
        usage: JSON.parse(row.usage_json) as UsageTotals,
        images: statements.images.all(id).map(toImage),
        turns: statements.turns.all(id).map(toTurn),
      };
      return record;
    },

    imageBytes(sha256) {
      const row = statements.blob.get(sha256);
      if (!row) throw new AppError('STORE_CORRUPT', 'A session image is missing from the database.', { data: { sha256 } });
      // A damaged page or an edited row must not reach the model as if it were the user's image.
      if (hash('sha256', row.bytes, 'hex') !== sha256) throw new AppError('STORE_CORRUPT', 'A session image no longer matches its content hash.', { data: { sha256 } });
      return new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
    },

    commitTurn(c) {
      try {
        commit.immediate(c);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code?.startsWith('SQLITE_CONSTRAINT')) {
          throw new AppError('STORE_CONFLICT', 'Another process changed this session at the same time; retry the call.', { retryable: true, data: { sessionId: c.sessionId } });
        }
        if (code === 'SQLITE_BUSY') throw new AppError('STORE_BUSY', 'The database is busy; retry the call.', { retryable: true });
        throw error;
      }
    },

    list(): SessionListing[] {
      const sources = new Map<string, string[]>();
      for (const { session_id, label } of statements.sourceLabels.all()) sources.set(session_id, [...(sources.get(session_id) ?? []), label]);
      return statements.listSessions.all().map((row) => ({
        id: row.id,
        summary: row.summary,
        sources: sources.get(row.id) ?? [],
        createdAt: row.created_at,
        lastAccessAt: row.last_access_at,
        iterations: row.iterations,
        imageCount: row.image_count,
        usage: JSON.parse(row.usage_json) as UsageTotals,
      }));
    },

    expiredIds: (cutoff) => statements.expired.all(cutoff).map((r) => r.id),

    rename: (id, summary) => void statements.renameSession.run(summary, id),

    delete: (id) => remove.immediate(id),
  };
}
