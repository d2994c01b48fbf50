import type { Edge, Face, Shape3D } from 'replicad';
import type { ExecutionContext, OperationExecutor } from './context';

function liveEdges(context: ExecutionContext): Edge[] {
  const all = context.previous?.edges ?? [];
  return (context.resolved.edges ?? []).map((info) => all[info.index] as Edge);
}

function liveFaces(context: ExecutionContext): Face[] {
  const all = context.previous?.faces ?? [];
  return (context.resolved.faces ?? []).map((info) => all[info.index] as Face);
}

function currentBody(context: ExecutionContext): Shape3D {
  if (!context.body) throw new Error('no body to modify');
  return context.body;
}

export const executeFillet: OperationExecutor = (context) => {
  const radius = (context.feature.params as { radius_mm: number }).radius_mm;
  const targets = liveEdges(context);
  // Only the resolved edges get a radius; every other edge returns null (untouched).
  return { body: context.arena.track(currentBody(context).fillet((edge: Edge) => (targets.some((t) => t.isSame(edge)) ? radius : null))) };
};

export const executeChamfer: OperationExecutor = (context) => {
  const distance = (context.feature.params as { distance_mm: number }).distance_mm;
  const targets = liveEdges(context);
  return { body: context.arena.track(currentBody(context).chamfer((edge: Edge) => (targets.some((t) => t.isSame(edge)) ? distance : null))) };
};

export const executeShell: OperationExecutor = (context) => {
  const thickness = (context.feature.params as { thickness_mm: number }).thickness_mm;
  const openings = liveFaces(context);
  const finder = new context.kernel.r.FaceFinder().inList(openings);
  // A positive replicad thickness keeps the outer skin and grows the walls inwards.
  return { body: context.arena.track(currentBody(context).shell({ filter: finder, thickness })) };
};
