import { mark, readInput, runRoute, type InputSpec, type RouteArgs } from "./door.server";

// The door of routes anyone may call: login and password pages, the portal's
// sign-up and login forms, OAuth steps, the app proxy and pixel endpoints.
// No session is required, so there is no shop's client to hand out; the
// input is still read through the route's schemas and errors become answers
// (with the typed values, for the plain HTML forms of the portal).

export interface PublicRequest<Q, B, P> {
  request: Request;
  query: Q;
  body: B;
  params: P;
}

export function publicRoute<R, Q = undefined, B = undefined, P = Record<string, string | undefined>>(
  spec: InputSpec<Q, B, P>,
  handler: (ctx: PublicRequest<Q, B, P>) => Promise<R>,
) {
  const route = (args: RouteArgs) =>
    runRoute(
      args,
      async () => {
        const input = await readInput(args, spec);
        return handler({ request: args.request, ...input });
      },
      { echo: true },
    );
  return mark(route, { kind: "public" });
}
