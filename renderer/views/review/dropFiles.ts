/** Most entries read from one dropped folder (a set holds at most MAX_SET_FILES drawings; the rest are other files). */
const MAX_FOLDER_ENTRIES = 2000;

/** The entries of a dropped folder (readEntries answers in batches until an empty one). */
async function folderEntries(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0 || all.length >= MAX_FOLDER_ENTRIES) return all;
    all.push(...batch);
  }
}

const isDirectory = (entry: FileSystemEntry | null): entry is FileSystemDirectoryEntry => entry?.isDirectory === true;
const isFile = (entry: FileSystemEntry): entry is FileSystemFileEntry => entry.isFile;

/**
 * What the user dropped: its files, and for a dropped folder the files directly in it (not its
 * subfolders, as `cadsight review <folder>`). `folder` names the first dropped folder.
 */
export async function droppedFiles(transfer: DataTransfer): Promise<{ files: File[]; folder: string | null }> {
  const files: File[] = [];
  let folder: string | null = null;
  const items = Array.from(transfer.items ?? []).filter((item) => item.kind === 'file');
  // Entries must be taken synchronously: the items are emptied once the drop handler yields.
  const entries = items.map((item) => ({ entry: typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null, file: item.getAsFile() }));
  for (const { entry, file } of entries) {
    if (isDirectory(entry)) {
      folder ??= entry.name;
      for (const child of await folderEntries(entry)) {
        if (isFile(child)) files.push(await new Promise<File>((resolve, reject) => child.file(resolve, reject)));
      }
    } else if (file) files.push(file);
  }
  // Browsers without items (and synthetic drops in tests) still list the files.
  if (items.length === 0) files.push(...Array.from(transfer.files ?? []));
  return { files, folder };
}
