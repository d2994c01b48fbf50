import type { Face, Shape3D } from 'replicad';
import type { ExecutionContext, OperationExecutor } from './context';

function liveFaces(context: ExecutionContext): Face[] {
  const all = context.previous?.faces ?? [];
  return (context.resolved.faces ?? []).map((info) => all[info.index] as Face);
}

function currentBody(context: ExecutionContext): Shape3D {
  if (!context.body) throw new Error('no body to modify');
  return context.body;
}

export const executeShell: OperationExecutor = (context) => {
  const thickness = (context.feature.params as { thickness_mm: number }).thickness_mm;
  const openings = liveFaces(context);
  const finder = new context.kernel.r.FaceFinder().inList(openings);
  // A positive replicad thickness keeps the outer skin and grows the walls inwards.
  return { body: context.arena.track(currentBody(context).shell({ filter: finder, thickness })) };
};
