// What both import wizards (ToolEmu results, SAGE scenarios) share: the upload of the chosen files
// with byte progress, and the stages a wizard goes through.

export type WizardStage<Preview, Applied> =
  | { kind: "idle" }
  | { kind: "uploading"; fraction: number }
  | { kind: "checking" }
  | { kind: "preview"; data: Preview }
  | { kind: "applying" }
  | { kind: "done"; data: Applied };

/** POSTs the files to /api/import/uploads (an XHR: fetch has no upload progress). */
export function uploadFiles(files: File[], onProgress: (fraction: number) => void): Promise<{ uploadId: string }> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    // Folder uploads keep their relative paths: the importers read folder structure and check
    // folder names against ids.
    for (const f of files) form.append("files", f, (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/import/uploads");
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      const body = JSON.parse(xhr.responseText || "{}");
      if (xhr.status === 200) resolve(body);
      else reject(new Error(body.error ?? `Upload failed (${xhr.status}).`));
    };
    xhr.onerror = () => reject(new Error("The upload was interrupted; check the connection and try again."));
    xhr.send(form);
  });
}
