// Sends one file as the raw body of a POST with XMLHttpRequest, which (unlike
// fetch) reports the progress of the bytes going out. Embedded in the Shopify
// admin, App Bridge only adds its session token to fetch calls, so the token
// is asked for and set here.

export interface UploadAnswer {
  status: number;
  body: unknown;
}

declare global {
  interface Window {
    shopify?: { idToken?: () => Promise<string> };
  }
}

export async function uploadFile(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<UploadAnswer> {
  const token = typeof window !== "undefined" && window.shopify?.idToken ? await window.shopify.idToken() : null;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.setRequestHeader("Accept", "application/json");
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error("upload failed"));
    xhr.send(file);
  });
}
