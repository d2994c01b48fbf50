import type { Edge, Shape3D } from 'replicad';
import { cdslError, CdslErrorCode } from '../../../domain/errors';
import type { EdgeInfo } from '../../../domain/topology';
import { isValidShape } from '../geometryProbes';
import type { ExecutionContext, OperationExecutor } from './context';

type BlendKind = 'fillet' | 'chamfer';

/** Why one attempt failed, in the kernel's terms. */
interface BlendFailure {
  /** Indices (into the resolved edges) OpenCascade reports in faulty contours; empty when it names none. */
  faulty: number[];
  kernel_status: string;
}

/** Bisection steps when searching the largest workable size (each is one kernel build). */
const SEARCH_STEPS = 6;
/** Edges tried one by one to name the culprit when the kernel reports no faulty contour. */
const MAX_SINGLE_EDGE_PROBES = 12;

/**
 * One fillet/chamfer attempt through BRepFilletAPI directly (replicad hides the builder's
 * status): either the new valid solid, or the faulty contours and the kernel's status.
 */
function attempt(context: ExecutionContext, kind: BlendKind, edges: Edge[], size: number): Shape3D | BlendFailure {
  const { oc, r } = context.kernel;
  const body = context.body as Shape3D;
  const builder = kind === 'fillet' ? new oc.BRepFilletAPI_MakeFillet(body.wrapped, oc.ChFi3d_FilletShape.ChFi3d_Rational) : new oc.BRepFilletAPI_MakeChamfer(body.wrapped);
  try {
    for (const edge of edges) builder.Add(size, edge.wrapped);
    try {
      builder.Build();
    } catch (error) {
      return { faulty: [], kernel_status: `kernel exception: ${error instanceof Error ? error.message : 'Standard_Failure'}` };
    }
    if (!builder.IsDone()) {
      if (kind === 'chamfer') return { faulty: [], kernel_status: 'BRepFilletAPI_MakeChamfer: not done' };
      const filleter = builder as InstanceType<typeof oc.BRepFilletAPI_MakeFillet>;
      const faulty = new Set<number>();
      const contours: string[] = [];
      for (let i = 1; i <= filleter.NbFaultyContours(); i += 1) {
        const contour = filleter.FaultyContour(i);
        contours.push(`contour ${contour}: ${filleter.NbComputedSurfaces(contour)} surface(s) computed`);
        for (let j = 1; j <= filleter.NbEdges(contour); j += 1) {
          const raw = filleter.Edge(contour, j);
          const index = edges.findIndex((e) => e.wrapped.IsSame(raw));
          raw.delete();
          if (index >= 0) faulty.add(index);
        }
      }
      const vertices = filleter.NbFaultyVertices();
      const status = [`BRepFilletAPI_MakeFillet: not done, ${filleter.NbFaultyContours()} faulty contour(s)`, ...contours, ...(vertices > 0 ? [`${vertices} faulty vertex/vertices`] : [])].join('; ');
      return { faulty: [...faulty], kernel_status: status };
    }
    const shape = context.arena.track(r.cast(builder.Shape())) as Shape3D;
    if (!isValidShape(context.kernel, shape)) return { faulty: [], kernel_status: 'built, but BRepCheck_Analyzer rejects the result (self-intersecting blend)' };
    return shape;
  } finally {
    builder.delete();
  }
}

const failed = (result: Shape3D | BlendFailure): result is BlendFailure => 'kernel_status' in result;

/** Largest size in (0, size) the kernel accepts, by bisection over at most SEARCH_STEPS builds; null when none of them worked. */
function largestWorkable(context: ExecutionContext, kind: BlendKind, edges: Edge[], size: number): number | null {
  let lo = 0;
  let hi = size;
  for (let step = 0; step < SEARCH_STEPS; step += 1) {
    const mid = (lo + hi) / 2;
    if (failed(attempt(context, kind, edges, mid))) hi = mid;
    else lo = mid;
  }
  // Rounded down so the reported value is itself workable.
  return lo > 0 ? Math.floor(lo * 1000) / 1000 : null;
}

function blend(kind: BlendKind): OperationExecutor {
  return (context) => {
    if (!context.body) throw new Error('no body to modify');
    const params = context.feature.params as { radius_mm?: number; distance_mm?: number };
    const size = (kind === 'fillet' ? params.radius_mm : params.distance_mm) as number;
    const infos: EdgeInfo[] = context.resolved.edges ?? [];
    const live = infos.map((info) => context.previous?.edges[info.index] as Edge);
    const result = attempt(context, kind, live, size);
    if (!failed(result)) return { body: result, validated: true };
    let faulty = result.faulty;
    if (faulty.length === 0 && live.length > 1 && live.length <= MAX_SINGLE_EDGE_PROBES) {
      faulty = live.map((edge, i) => (failed(attempt(context, kind, [edge], size)) ? i : -1)).filter((i) => i >= 0);
    }
    const culprits = faulty.length > 0 ? faulty : live.map((_, i) => i);
    const largest = largestWorkable(context, kind, culprits.map((i) => live[i] as Edge), size);
    const tokens = culprits.map((i) => infos[i]?.token as string);
    const what = kind === 'fillet' ? 'radius' : 'distance';
    const limit = largest === null ? `no ${what} down to ${(size / 2 ** SEARCH_STEPS).toPrecision(3)} mm works there` : `exceeds the ${largest} mm available`;
    throw cdslError(kind === 'fillet' ? CdslErrorCode.filletFailed : CdslErrorCode.chamferFailed, `${context.feature.id} (${kind}): edge ${tokens.join(', ')}: ${what} ${size} mm ${limit} (${result.kernel_status})`, {
      feature_id: context.feature.id,
      failing_edge_tokens: tokens,
      requested_mm: size,
      largest_workable_mm: largest,
      kernel_status: result.kernel_status,
    });
  };
}

/** Constant-radius fillet on the resolved edges; failures are CDSL_FILLET_FAILED naming edges and the largest workable radius. */
export const executeFillet: OperationExecutor = blend('fillet');
/** Equal-distance chamfer on the resolved edges; failures are CDSL_CHAMFER_FAILED like fillets. */
export const executeChamfer: OperationExecutor = blend('chamfer');
