/**
 * How providers bill an image, as published: the one copy of these rules (the vision slice's
 * benchmarks, the CAD generation reviewer's render budget and the scripted provider's token
 * estimate all use it).
 */

/**
 * Estimated vision tokens of an image with OpenAI's high-detail tiling rule (fit in 2048,
 * shortest side 768, 170 per 512 tile + 85): a provider-neutral yardstick for the benchmark.
 */
export function estimateVisionTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shortScale = Math.min(1, 768 / Math.min(w, h));
  w *= shortScale;
  h *= shortScale;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/**
 * Anthropic's published estimate: an image larger than 1568 px on its long edge or ~1.15
 * megapixels is scaled down first, then costs width × height / 750 tokens.
 */
export function anthropicImageTokens(width: number, height: number): number {
  const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
  return Math.ceil((Math.round(width * scale) * Math.round(height * scale)) / 750);
}
