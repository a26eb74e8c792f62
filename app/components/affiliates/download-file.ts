/**
 * Downloads a file answered by the app. fetch (not a plain link) so that,
 * embedded in the Shopify admin, App Bridge adds the session token the
 * server authenticates with; standalone, the login cookie goes along.
 */
export async function downloadFile(url: string): Promise<boolean> {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) return false;
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "download.csv";
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return true;
}
