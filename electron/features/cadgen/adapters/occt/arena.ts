/** Anything backed by WASM memory that must be released explicitly. */
export interface Deletable {
  delete(): void;
}

/**
 * Tracks every kernel object created during one build so all of them are deleted when the build
 * ends (success or failure). The finalization registry replicad uses is not relied upon: GC timing
 * is unpredictable and WASM memory would grow until it runs.
 */
export class Arena {
  private readonly objects: Deletable[] = [];

  /** Registers anything kernel-backed; objects without delete() (e.g. Drawings) release their blueprints. */
  track<T extends object | null | undefined>(object: T): T {
    if (!object) return object;
    if (typeof (object as Partial<Deletable>).delete === 'function') this.objects.push(object as unknown as Deletable);
    else for (const part of drawingBlueprints(object)) this.objects.push(part);
    return object;
  }

  get liveCount(): number {
    return this.objects.length;
  }

  /** Deletes in reverse creation order; returns how many objects were released. */
  dispose(): number {
    let released = 0;
    while (this.objects.length > 0) {
      const object = this.objects.pop() as Deletable;
      try {
        object.delete();
        released += 1;
      } catch {
        // Already deleted through a replicad shortcut; nothing left to free.
      }
    }
    return released;
  }
}

/**
 * replicad Drawings have no delete(); their 2D curves live in Blueprints (private `innerShape`,
 * possibly nested in Blueprints/CompoundBlueprint), which do. Walk that structure.
 */
function drawingBlueprints(object: object): Deletable[] {
  const inner = (object as { innerShape?: unknown }).innerShape ?? (object as { blueprints?: unknown }).blueprints;
  const nodes = Array.isArray(inner) ? inner : inner ? [inner] : [];
  return nodes.flatMap((node: object) => (typeof (node as Partial<Deletable>).delete === 'function' ? [node as Deletable] : drawingBlueprints(node)));
}
