/**
 * The viewer's camera and tile grid, in drawing units (y up) and screen pixels (y down). Pure:
 * the component keeps the state, these functions say where things are and which tiles to ask for.
 */

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}
export interface Point {
  x: number;
  y: number;
}
/** Centre of the screen in drawing units and drawing units per screen pixel. */
export interface Camera {
  cx: number;
  cy: number;
  upp: number;
}
export interface Size {
  width: number;
  height: number;
}

/** Closest zoom: a few screen pixels per drawing unit more than the finest tile level shows. */
export const MIN_UPP_RATIO = 1 / 256;
/** Tile edge in pixels: big enough for few requests, small enough to render quickly. */
export const TILE_PX = 512;
/** Finest tile level (level k has 2^k times the overview's resolution). */
export const MAX_LEVEL = 6;
/** Most tiles one view asks for (a huge window on a tiny zoom must not flood the host). */
export const MAX_TILES_PER_VIEW = 24;

/** The camera that shows `box` whole inside `size`, with a little room around it. */
export function fitCamera(box: Box, size: Size, margin = 0.04): Camera {
  const w = Math.max(box.maxX - box.minX, 1e-9);
  const h = Math.max(box.maxY - box.minY, 1e-9);
  const upp = Math.max(w / Math.max(size.width, 1), h / Math.max(size.height, 1)) * (1 + margin);
  return { cx: (box.minX + box.maxX) / 2, cy: (box.minY + box.maxY) / 2, upp };
}

export function toScreen(p: Point, camera: Camera, size: Size): Point {
  return { x: (p.x - camera.cx) / camera.upp + size.width / 2, y: size.height / 2 - (p.y - camera.cy) / camera.upp };
}

export function toDrawing(p: Point, camera: Camera, size: Size): Point {
  return { x: camera.cx + (p.x - size.width / 2) * camera.upp, y: camera.cy - (p.y - size.height / 2) * camera.upp };
}

/** A drawing box as a screen rectangle (left/top/width/height in pixels). */
export function boxToScreen(box: Box, camera: Camera, size: Size): { left: number; top: number; width: number; height: number } {
  const a = toScreen({ x: box.minX, y: box.maxY }, camera, size);
  return { left: a.x, top: a.y, width: (box.maxX - box.minX) / camera.upp, height: (box.maxY - box.minY) / camera.upp };
}

/** What the screen shows, in drawing units. */
export function visibleBox(camera: Camera, size: Size): Box {
  const hw = (size.width / 2) * camera.upp;
  const hh = (size.height / 2) * camera.upp;
  return { minX: camera.cx - hw, minY: camera.cy - hh, maxX: camera.cx + hw, maxY: camera.cy + hh };
}

/**
 * Zooms by `factor` (> 1 closer) keeping the drawing point under `at` (screen) where it is; the
 * zoom stays between the whole layout (`maxUpp`) and the finest useful detail.
 */
export function zoomAt(camera: Camera, factor: number, at: Point, size: Size, maxUpp: number): Camera {
  const upp = Math.min(maxUpp, Math.max(maxUpp * MIN_UPP_RATIO, camera.upp / factor));
  const anchor = toDrawing(at, camera, size);
  // The anchor keeps its screen position: cx' = anchor.x − (at.x − w/2)·upp'.
  return { cx: anchor.x - (at.x - size.width / 2) * upp, cy: anchor.y + (at.y - size.height / 2) * upp, upp };
}

export function pan(camera: Camera, dxPx: number, dyPx: number): Camera {
  return { ...camera, cx: camera.cx - dxPx * camera.upp, cy: camera.cy + dyPx * camera.upp };
}

/** One tile of the grid: its level, indices and drawing box. */
export interface TileSpec {
  key: string;
  level: number;
  ix: number;
  iy: number;
  box: Box;
}

/** The tile level worth asking for: 0 = the overview suffices, k = 2^k × its resolution. */
export function tileLevel(cameraUpp: number, overviewUpp: number): number {
  if (cameraUpp >= overviewUpp / 1.5) return 0;
  return Math.min(MAX_LEVEL, Math.max(1, Math.ceil(Math.log2(overviewUpp / cameraUpp))));
}

/**
 * Tiles of `level` that cover the visible part of `extent` (the layout), nearest the centre first,
 * at most MAX_TILES_PER_VIEW. The grid is anchored at the extent's corner so tiles are reused
 * across pans and zooms at the same level.
 */
export function tilesFor(camera: Camera, size: Size, extent: Box, overviewUpp: number): TileSpec[] {
  const level = tileLevel(camera.upp, overviewUpp);
  if (level === 0) return [];
  const world = (TILE_PX * overviewUpp) / 2 ** level;
  const view = visibleBox(camera, size);
  const minX = Math.max(view.minX, extent.minX);
  const maxX = Math.min(view.maxX, extent.maxX);
  const minY = Math.max(view.minY, extent.minY);
  const maxY = Math.min(view.maxY, extent.maxY);
  if (minX >= maxX || minY >= maxY) return [];
  const tiles: TileSpec[] = [];
  for (let ix = Math.floor((minX - extent.minX) / world); ix * world + extent.minX < maxX; ix++) {
    for (let iy = Math.floor((minY - extent.minY) / world); iy * world + extent.minY < maxY; iy++) {
      const box = { minX: extent.minX + ix * world, minY: extent.minY + iy * world, maxX: extent.minX + (ix + 1) * world, maxY: extent.minY + (iy + 1) * world };
      tiles.push({ key: `${level}/${ix}/${iy}`, level, ix, iy, box });
    }
  }
  const d = (t: TileSpec) => Math.hypot((t.box.minX + t.box.maxX) / 2 - camera.cx, (t.box.minY + t.box.maxY) / 2 - camera.cy);
  return tiles.sort((a, b) => d(a) - d(b)).slice(0, MAX_TILES_PER_VIEW);
}
