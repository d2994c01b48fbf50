import type { DrawingOverview } from '../../../store/reviewSlice';

/** Viewer tabs: model space first, then each paper layout the drawing has (or that a frame is in). */
export function layoutTabs(drawing: DrawingOverview | null): string[] {
  const names = [...(drawing?.info?.layouts.map((l) => l.name) ?? []), ...(drawing?.frames.map((f) => f.layout) ?? [])];
  const unique = [...new Set(names)];
  const model = unique.find((n) => n.toLowerCase() === 'model') ?? 'Model';
  return [model, ...unique.filter((n) => n !== model)];
}

/** A layout's name for people: model space in the UI language (DXF names it "Model" in every language), paper layouts as their author named them. */
export function layoutLabel(name: string, modelSpace: string): string {
  return name.toLowerCase() === 'model' ? modelSpace : name;
}
