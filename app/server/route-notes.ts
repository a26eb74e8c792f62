import type { ServerBuild } from "@remix-run/node";
import { noteRoute, notesOf } from "../lib/request-notes";

// The request log names the Remix route that answered a request. Remix
// matches routes inside its handler and tells no one, so each route's loader
// and action are wrapped to note their route id (the deepest one that runs
// wins: a document's page, not its layouts) in the notes the load context
// carries. Wrapping once at start costs a request one property write per
// loader, where matching the URL again would cost as much as Remix's own match.

type Handler = (args: { context?: unknown }) => unknown;

export function withRouteNotes(build: ServerBuild): ServerBuild {
  const depthOf = (id: string) => {
    let depth = 0;
    for (let route = build.routes[id]; route?.parentId; route = build.routes[route.parentId]) depth++;
    return depth;
  };
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const depth = depthOf(id);
    const wrap = (handler: Handler | undefined) =>
      handler &&
      Object.assign((args: { context?: unknown }) => {
        noteRoute(notesOf(args.context), id, depth);
        return handler(args);
      }, handler);
    const module = route.module as unknown as { loader?: Handler; action?: Handler };
    routes[id] = {
      ...route,
      module: { ...route.module, loader: wrap(module.loader), action: wrap(module.action) } as typeof route.module,
    };
  }
  return { ...build, routes };
}
