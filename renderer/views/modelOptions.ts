/** One model of the Settings providers as a select option. */
export interface ModelOption {
  /** providerId + separator + model (each view picks the separator its value parser splits on). */
  value: string;
  /** "Provider label · model". */
  label: string;
}

/** Every model of every Settings provider, in Settings order, as select options. */
export function modelOptions(providers: readonly { id: string; label: string; models: readonly string[] }[], separator: string): ModelOption[] {
  return providers.flatMap((p) => p.models.map((m) => ({ value: `${p.id}${separator}${m}`, label: `${p.label} · ${m}` })));
}
