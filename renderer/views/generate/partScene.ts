import {
  AmbientLight,
  Box3,
  Color,
  BufferGeometry,
  DirectionalLight,
  EdgesGeometry,
  Float32BufferAttribute,
  HemisphereLight,
  LineBasicMaterial,
  LineSegments,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Raycaster,
  Scene,
  SphereGeometry,
  Vector2,
  Vector3,
  WebGLRenderer,
  type Material,
  type Object3D,
} from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { circleDiameter, edgeChain, MM_PER_WORLD_UNIT, type MeasurePick } from './measure';
import { framingDistance, VIEW_DIRECTIONS, type Vec3, type ViewName } from './viewPresets';

/** What the GLB stores per B-rep face node (see cadgen's glbEncoder): token, kind and measurements. */
export interface HoveredFace {
  token: string;
  kind: string;
  area_mm2?: number;
  /** Outward unit normal (planes). */
  normal?: [number, number, number];
  /** Unit axis direction (cylinders, spheres). */
  axis_direction?: [number, number, number];
  diameter_mm?: number;
  /** Cylinders: a bore (material outside) rather than a boss. */
  concave?: boolean;
}

const vec3 = (value: unknown): [number, number, number] | undefined =>
  Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'number') ? (value as [number, number, number]) : undefined;
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Reads a face node's extras; only well-typed values are kept (the GLB is data, not trusted code). */
function faceFromExtras(data: Record<string, unknown>, token: string): HoveredFace {
  const face: HoveredFace = { token, kind: typeof data.kind === 'string' ? data.kind : 'other' };
  const area = num(data.area_mm2);
  const diameter = num(data.diameter_mm);
  const normal = vec3(data.normal);
  const axis = vec3(data.axis_direction);
  if (area !== undefined) face.area_mm2 = area;
  if (diameter !== undefined) face.diameter_mm = diameter;
  if (normal) face.normal = normal;
  if (axis) face.axis_direction = axis;
  if (typeof data.concave === 'boolean') face.concave = data.concave;
  return face;
}

/** A three.js view of one part: load GLB bytes, orbit, fit, standard views, hover-highlight and measure faces. */
export interface PartScene {
  load(glb: Uint8Array): Promise<void>;
  /** Colours the faces with these selector tokens (a claim's evidence); [] clears. Survives reloads. */
  highlight(tokens: readonly string[]): void;
  /** Frames the part from the last standard view chosen (iso at first). */
  fit(): void;
  /** Looks at the part from a standard view, framed. */
  setView(view: ViewName): void;
  /** While on, a click on the part reports a pick (point, and a face's or circular edge's diameter). */
  setMeasuring(on: boolean): void;
  /** Shows the measured points (and the line between two); [] clears. */
  showPicks(picks: readonly MeasurePick[]): void;
  resize(width: number, height: number): void;
  dispose(): void;
}

const FACE_COLOR = 0xb8bdc7;
const HOVER_COLOR = 0xf0a020;
const HIGHLIGHT_COLOR = 0x2f7de1;
const EDGE_COLOR = 0x1d2330;
const PICK_COLOR = 0xd0312d;
// Feature lines drawn from the triangles only for a GLB without its B-rep edges: where the
// surface turns by more than this, not across the facets of a smooth cylinder.
const FEATURE_ANGLE_DEG = 30;
// Room around the part after fitting, as a factor of the tightest camera distance.
const FIT_MARGIN = 1.15;

function faceOf(object: Object3D | null): { mesh: Mesh; face: HoveredFace } | null {
  for (let node = object; node; node = node.parent) {
    const data = node.userData as Record<string, unknown>;
    if (node instanceof Mesh && typeof data.face_token === 'string') return { mesh: node, face: faceFromExtras(data, data.face_token) };
  }
  return null;
}

/**
 * Creates the renderer on `canvas`. Throws when WebGL is unavailable (the caller shows a
 * message instead). Renders on demand only (camera moves, hover, resize), so an idle view costs nothing.
 */
export function createPartScene(canvas: HTMLCanvasElement, onHover: (face: HoveredFace | null) => void, onPick: (pick: MeasurePick) => void = () => {}): PartScene {
  const renderer = new WebGLRenderer({ canvas, antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  const scene = new Scene();
  scene.background = new Color(0xf7f8fa);
  const camera = new PerspectiveCamera(35, 1, 0.0001, 100);
  camera.up.set(0, 0, 1);
  scene.add(new HemisphereLight(0xffffff, 0x8a8f99, 1.6), new AmbientLight(0xffffff, 0.35));
  const headlight = new DirectionalLight(0xffffff, 1.4);
  camera.add(headlight);
  scene.add(camera);
  const controls = new OrbitControls(camera, canvas);
  const faceMaterial = new MeshStandardMaterial({ color: FACE_COLOR, metalness: 0.1, roughness: 0.6, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
  const hoverMaterial = faceMaterial.clone();
  hoverMaterial.color.set(HOVER_COLOR);
  const highlightMaterial = faceMaterial.clone();
  highlightMaterial.color.set(HIGHLIGHT_COLOR);
  const edgeMaterial = new LineBasicMaterial({ color: EDGE_COLOR });
  const pickMaterial = new MeshStandardMaterial({ color: PICK_COLOR, depthTest: false });
  const pickLineMaterial = new LineBasicMaterial({ color: PICK_COLOR, depthTest: false });
  const pickGeometry = new SphereGeometry(1, 16, 12);
  const raycaster = new Raycaster();
  const pointer = new Vector2();
  const disposables: { dispose(): void }[] = [faceMaterial, hoverMaterial, highlightMaterial, edgeMaterial, pickMaterial, pickLineMaterial, pickGeometry];
  const pickMarks: Object3D[] = [];
  let view: ViewName = 'iso';
  let measuring = false;
  let modelSize = 1;
  let lineThreshold = 0;
  let model: Object3D | null = null;
  let hovered: Mesh | null = null;
  let highlighted = new Set<string>();
  /** A face's resting material: highlighted when its token is among the selected claim's faces. */
  const restingMaterial = (mesh: Mesh): Material => (highlighted.has(String((mesh.userData as Record<string, unknown>).face_token)) ? highlightMaterial : faceMaterial);
  // Until the user orbits, a resize re-frames the part (the first layout may come after loading).
  let framed = false;

  const render = (): void => renderer.render(scene, camera);
  controls.addEventListener('change', render);
  controls.addEventListener('start', () => {
    framed = false;
  });

  const setHovered = (next: { mesh: Mesh; face: HoveredFace } | null): void => {
    if (hovered === (next?.mesh ?? null)) return;
    if (hovered) hovered.material = restingMaterial(hovered);
    hovered = next?.mesh ?? null;
    if (hovered) hovered.material = hoverMaterial;
    onHover(next?.face ?? null);
    render();
  };

  const onPointerMove = (event: PointerEvent): void => {
    if (!model || event.buttons !== 0) return;
    const rect = canvas.getBoundingClientRect();
    pointer.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(pointer, camera);
    const hit = raycaster.intersectObject(model, true).find((i) => i.object instanceof Mesh);
    setHovered(hit ? faceOf(hit.object) : null);
  };
  const onPointerLeave = (): void => setHovered(null);
  // A click (not the end of an orbit drag) while measuring picks the nearest face or edge.
  let downAt: { x: number; y: number } | null = null;
  const onPointerDown = (event: PointerEvent): void => {
    downAt = { x: event.clientX, y: event.clientY };
  };
  const onPointerUp = (event: PointerEvent): void => {
    const moved = downAt ? Math.hypot(event.clientX - downAt.x, event.clientY - downAt.y) : Infinity;
    downAt = null;
    if (!measuring || !model || moved > 4) return;
    const rect = canvas.getBoundingClientRect();
    pointer.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(pointer, camera);
    raycaster.params.Line = { threshold: lineThreshold };
    const pick = pickAt(raycaster.intersectObject(model, true));
    if (pick) onPick(pick);
  };
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('pointerleave', onPointerLeave);
  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointerup', onPointerUp);

  const clearModel = (): void => {
    if (!model) return;
    scene.remove(model);
    model.traverse((node) => {
      if (node instanceof Mesh || node instanceof LineSegments) node.geometry.dispose();
    });
    model = null;
    hovered = null;
  };

  const toMm = (p: Vector3): Vec3 => [p.x * MM_PER_WORLD_UNIT, p.y * MM_PER_WORLD_UNIT, p.z * MM_PER_WORLD_UNIT];

  /** A pick from the nearest hit: an edge (with its diameter when circular) or a face (with a cylinder's). */
  const pickAt = (hits: ReturnType<Raycaster['intersectObject']>): MeasurePick | null => {
    // An edge wins over the face it bounds (both lie at about the same depth); an edge hidden
    // behind a face does not.
    const faceHit = hits.find((h) => h.object instanceof Mesh);
    const edgeHit = hits.find((h) => h.object instanceof LineSegments && h.index !== undefined && (!faceHit || h.distance <= faceHit.distance + modelSize * 0.01));
    const hit = edgeHit ?? faceHit;
    if (!hit) return null;
    if (hit === edgeHit && hit.index !== undefined) {
      const positions = (hit.object as LineSegments).geometry.getAttribute('position');
      const chain = edgeChain(positions.array, Math.floor(hit.index / 2)).map((p) => {
        const world = new Vector3(...p).applyMatrix4(hit.object.matrixWorld);
        return toMm(world);
      });
      const diameter = circleDiameter(chain);
      return { point: toMm(hit.point), source: 'edge', ...(diameter !== null ? { diameter_mm: diameter } : {}) };
    }
    const face = faceOf(hit.object);
    return { point: toMm(hit.point), source: 'face', ...(face ? { faceToken: face.face.token } : {}), ...(face?.face.diameter_mm !== undefined ? { diameter_mm: face.face.diameter_mm } : {}) };
  };

  const clearPicks = (): void => {
    for (const mark of pickMarks.splice(0)) {
      scene.remove(mark);
      if (mark instanceof LineSegments) mark.geometry.dispose();
    }
  };

  /** Frames the part's vertices as seen from the current standard view (tighter than a box or sphere for round parts). */
  const fit = (): void => {
    if (!model) return;
    const center = new Box3().setFromObject(model).getCenter(new Vector3());
    const direction = new Vector3(...VIEW_DIRECTIONS[view]);
    const points: Vec3[] = [];
    const vertex = new Vector3();
    model.updateMatrixWorld(true);
    model.traverse((node) => {
      if (!(node instanceof Mesh)) return;
      const positions = node.geometry.getAttribute('position');
      for (let i = 0; i < positions.count; i += 1) {
        vertex.fromBufferAttribute(positions, i).applyMatrix4(node.matrixWorld).sub(center);
        points.push([vertex.x, vertex.y, vertex.z]);
      }
    });
    const distance = framingDistance(points, VIEW_DIRECTIONS[view], camera.fov, camera.aspect) * FIT_MARGIN;
    camera.position.copy(center).addScaledVector(direction, distance);
    camera.near = distance / 100;
    camera.far = distance * 10;
    camera.updateProjectionMatrix();
    controls.target.copy(center);
    controls.update();
    framed = true;
    render();
  };

  return {
    async load(glb) {
      const gltf = await new GLTFLoader().parseAsync(glb.slice().buffer, '');
      clearModel();
      model = gltf.scene;
      model.traverse((node) => {
        if (!(node instanceof Mesh) && !(node instanceof LineSegments)) return;
        // Shared materials: the GLB's own are replaced so hover can swap a single object.
        for (const material of [node.material].flat() as Material[]) material.dispose();
        // The GLB carries the B-rep edges themselves (seams excluded), so no edges are guessed from triangles.
        node.material = node instanceof LineSegments ? edgeMaterial : restingMaterial(node);
      });
      // A GLB without its B-rep edges (another exporter) still gets feature lines, from the triangles.
      let hasEdges = false;
      model.traverse((node) => {
        if (node instanceof LineSegments) hasEdges = true;
      });
      if (!hasEdges) {
        const meshes: Mesh[] = [];
        model.traverse((node) => {
          if (node instanceof Mesh) meshes.push(node);
        });
        for (const mesh of meshes) mesh.add(new LineSegments(new EdgesGeometry(mesh.geometry, FEATURE_ANGLE_DEG), edgeMaterial));
      }
      clearPicks();
      scene.add(model);
      const size = new Box3().setFromObject(model).getSize(new Vector3());
      modelSize = Math.max(size.x, size.y, size.z, 1e-6);
      // three.js divides the line pick threshold by the line object's own scale only, not its
      // parents' (the GLB's mm → m root scale): pre-divide by the rest so ~0.6 % of the part counts.
      let parentScale = 1;
      model.traverse((node) => {
        if (node instanceof LineSegments) parentScale = node.getWorldScale(new Vector3()).x / node.scale.x;
      });
      lineThreshold = (modelSize * 0.006) / parentScale;
      fit();
    },
    highlight(tokens) {
      highlighted = new Set(tokens);
      model?.traverse((node) => {
        if (node instanceof Mesh && node !== hovered) node.material = restingMaterial(node);
      });
      render();
    },
    fit,
    setView(next) {
      view = next;
      fit();
    },
    setMeasuring(on) {
      measuring = on;
      if (!on) clearPicks();
      render();
    },
    showPicks(picks) {
      clearPicks();
      const radius = modelSize * 0.008;
      for (const pick of picks) {
        const mark = new Mesh(pickGeometry, pickMaterial);
        mark.position.set(...pick.point).divideScalar(MM_PER_WORLD_UNIT);
        mark.scale.setScalar(radius);
        mark.renderOrder = 2;
        pickMarks.push(mark);
      }
      if (picks.length === 2) {
        const line = new BufferGeometry();
        line.setAttribute('position', new Float32BufferAttribute(picks.flatMap((p) => p.point.map((v) => v / MM_PER_WORLD_UNIT)), 3));
        const segment = new LineSegments(line, pickLineMaterial);
        segment.renderOrder = 2;
        pickMarks.push(segment);
      }
      for (const mark of pickMarks) scene.add(mark);
      render();
    },
    resize(width, height) {
      if (width <= 0 || height <= 0) return;
      renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      if (framed) fit();
      else render();
    },
    dispose() {
      canvas.removeEventListener('pointermove', onPointerMove);
      canvas.removeEventListener('pointerleave', onPointerLeave);
      canvas.removeEventListener('pointerdown', onPointerDown);
      canvas.removeEventListener('pointerup', onPointerUp);
      controls.dispose();
      clearPicks();
      clearModel();
      for (const item of disposables) item.dispose();
      renderer.dispose();
    },
  };
}
