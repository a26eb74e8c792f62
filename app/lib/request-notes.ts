// What a request's handling learns that its log line should say (the Remix
// route that answered it, the shop it was for), written into an object the
// server's door hands Remix as part of the load context and reads back when
// the answer is sent (app/server/request-log.ts).

import type { DbWaits } from "../db/db-context";

export interface RequestNotes {
  /** The answering route (a Remix route id, or the server's own handler). */
  route?: string;
  /** How deep in the route tree `route` is: a document's leaf outranks its layouts. */
  routeDepth: number;
  /** The shop the request was for, once the door has authenticated it. */
  shop?: string;
  /** Where its time went in the database (counted for Remix's requests: server/remix-handler.ts). */
  db?: DbWaits;
}

export function newRequestNotes(): RequestNotes {
  return { routeDepth: -1 };
}

/** The notes in a Remix load context, if the server put them there. */
export function notesOf(context: unknown): RequestNotes | undefined {
  const notes = (context as { requestNotes?: RequestNotes } | null | undefined)?.requestNotes;
  return notes && typeof notes === "object" ? notes : undefined;
}

/** The door records the shop it authenticated. */
export function noteShop(context: unknown, domain: string) {
  const notes = notesOf(context);
  if (notes) notes.shop = domain;
}

/** A route's loader or action ran: the deepest one names the request's route. */
export function noteRoute(notes: RequestNotes | undefined, route: string, depth: number) {
  if (notes && depth > notes.routeDepth) {
    notes.route = route;
    notes.routeDepth = depth;
  }
}
