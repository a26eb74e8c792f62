import path from "node:path";

// The Prisma CLI tries to download its Rust engines when it cannot find them,
// and this machine (like a user's offline machine) has no internet. The app
// runs on driver adapters with engineType "client", so the engines are never
// used: pointing these variables at an existing file stops the download.
export function offlinePrismaEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const placeholder = "/bin/false";
  return {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? placeholder,
    PRISMA_QUERY_ENGINE_LIBRARY: process.env.PRISMA_QUERY_ENGINE_LIBRARY ?? placeholder,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
    ...extra,
  };
}

export const projectRoot = path.resolve(__dirname, "../..");
export const sqliteSchemaPath = path.join(projectRoot, "prisma/schema.prisma");
export const postgresSchemaPath = path.join(projectRoot, "prisma/postgresql/schema.prisma");
export const prismaBin = path.join(projectRoot, "node_modules/.bin/prisma");
