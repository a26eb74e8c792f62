import { matchRoutes } from "@remix-run/react";
import type { ServerBuild } from "@remix-run/node";
import type express from "express";
import { sendRefusal } from "../lib/refusal.server";

// Remix refuses a document POST (PUT, PATCH, DELETE) whose Origin header does
// not name the host it was sent to, but by throwing, which ends in an empty
// 500 and a stack trace in the log. The same check is made here first, with
// the same rules, and answered 403 with a message. Data requests (`?_data=`)
// and resource routes are not checked by Remix and are left to their routes:
// the Web Pixel, for one, posts from the shop's checkout by design.

const MUTATIONS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

interface RouteObject {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children: RouteObject[];
}
type MatchableRoutes = Parameters<typeof matchRoutes>[0];

function routeTree(build: ServerBuild): MatchableRoutes {
  const byParent = new Map<string, RouteObject[]>();
  for (const route of Object.values(build.routes)) {
    const list = byParent.get(route.parentId ?? "") ?? [];
    list.push({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive, children: [] });
    byParent.set(route.parentId ?? "", list);
  }
  const attach = (parent: string): RouteObject[] =>
    (byParent.get(parent) ?? []).map((route) => ({ ...route, children: attach(route.id) }));
  // Index routes have no children, as the matcher's types want.
  return attach("") as MatchableRoutes;
}

/** The host the request was sent to, as Remix reads it (X-Forwarded-Host first). */
function requestHost(req: express.Request): string | undefined {
  const forwarded = req.get("x-forwarded-host")?.split(",")[0]?.trim();
  return forwarded || req.get("host") || undefined;
}

function originHost(origin: string): string | null {
  if (origin === "null") return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

export function crossSiteForms(build: ServerBuild): express.RequestHandler {
  const routes = routeTree(build);
  // As Remix decides: a resource route is a leaf without a component or an
  // error boundary; anything else (no match included) is a document request.
  const isDocument = (pathname: string) => {
    const matches = matchRoutes(routes, pathname);
    const leaf = matches?.[matches.length - 1]?.route;
    if (!leaf?.id) return true;
    const module = build.routes[leaf.id]?.module;
    return module?.default != null || module?.ErrorBoundary != null;
  };
  return (req, res, next) => {
    const origin = req.get("origin");
    if (!origin || !MUTATIONS.has(req.method)) return next();
    // Read as Remix reads it: "//x/" is a path here, not another host.
    const url = new URL(`http://localhost${req.originalUrl}`);
    if (url.searchParams.has("_data") || !isDocument(url.pathname)) return next();
    const host = requestHost(req);
    if (host && originHost(origin) === host) return next();
    void sendRefusal(req, res, { kind: "crossSite" });
  };
}
