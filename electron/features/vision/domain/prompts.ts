/** System prompt of every vision turn: describe faithfully, never invent what is not visible. */
export const VISION_SYSTEM_PROMPT = [
  'You are the eyes of a text-only assistant. You receive images and a question about them.',
  'Answer from what is visible in the images attached to the conversation; if something is unreadable or absent, say so instead of guessing.',
  'Images are labelled "Image #n"; refer to them by that label. Follow-up questions may refer to earlier turns; the images are re-attached each time.',
].join('\n');

/** Added to the first turn so the session gets a one-line summary from the same call. */
export const FIRST_TURN_SUMMARY_INSTRUCTION =
  'After your answer, add one final line of the form "SUMMARY: <one sentence naming what the images show>".';

/** Default prompt of analyze_document for each image (the caller may override it). */
export const DOCUMENT_IMAGE_PROMPT =
  'Describe this image from a document so a reader who cannot see it understands its content: type of image, all legible text, and the key facts it conveys. Be concise.';

/** Text of the user message that carries a zoomed crop. */
export function zoomPromptText(imageIndex: number, label: string, prompt: string): string {
  return `Image #${imageIndex}-zoom is a full-resolution crop of Image #${imageIndex} (${label}).\n${prompt}`;
}

/** Text of the user message that carries video frames. */
export function videoPromptText(frameCount: number, fps: number, prompt: string): string {
  return `The following ${frameCount} images are frames of one video, sampled at ${fps} frame(s) per second, in order.\n${prompt}`;
}
