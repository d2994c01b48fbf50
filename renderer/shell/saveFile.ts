/**
 * Hands bytes to the browser's download manager (Electron shows its save dialog) through a Blob
 * and a temporary anchor: no navigation, no server path.
 */
export function saveFile(bytes: Uint8Array, fileName: string, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([bytes.slice()], { type: mimeType }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The click has handed the blob to the download manager; revoke on the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Standard base64 to bytes (atob is native in browsers and Electron's renderer). */
export function base64Bytes(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
