import {
  keepingForm,
  mark,
  readInput,
  runRoute,
  withDeclaredWrites,
  type InputSpec,
  type RouteArgs,
} from "./door.server";

// The door of routes anyone may call: login and password pages, the portal's
// sign-up and login forms, OAuth steps, the app proxy and pixel endpoints.
// No session is required, so there is no shop's client to hand out; the
// input is still read through the route's schemas and errors become answers
// (with the typed values, for the plain HTML forms of the portal).

// Routes write `export const loader = /* @__PURE__ */ publicRoute(...)`: the
// classic compiler's browser build drops a route's loader and action only by
// tree-shaking, which keeps a top-level call unless it is marked pure, and
// this .server module is empty in the browser (calling it there throws, and
// the page never hydrates).

export interface PublicSpec<Q, B, P> extends InputSpec<Q, B, P> {
  /** Headers of every answer, errors included (CORS of an endpoint other sites call). */
  headers?: Record<string, string>;
}

export interface PublicRequest<Q, B, P> {
  request: Request;
  /** The request's load context (shared by the loaders of one document). */
  context?: unknown;
  query: Q;
  body: B;
  params: P;
}

export function publicRoute<R, Q = undefined, B = undefined, P = Record<string, string | undefined>>(
  spec: PublicSpec<Q, B, P>,
  handler: (ctx: PublicRequest<Q, B, P>) => Promise<R>,
) {
  const route = async (args: RouteArgs) => {
    const response = await runRoute(
      args,
      async () => {
        const input = await readInput(args, spec);
        return keepingForm(input.rawBody, () =>
          withDeclaredWrites(spec, () => handler({ request: args.request, context: args.context, ...input })),
        );
      },
      { echo: true, headers: spec.headers },
    );
    if (spec.headers && response instanceof Response) {
      for (const [name, value] of Object.entries(spec.headers)) {
        if (!response.headers.has(name)) response.headers.set(name, value);
      }
    }
    return response;
  };
  return mark(route, { kind: "public" });
}
