/** Whether a path's last segment names a file ("/favicon.ico", not "/admin/sales"). */
export function hasExtension(pathname: string): boolean {
  return pathname.slice(pathname.lastIndexOf("/") + 1).includes(".");
}
