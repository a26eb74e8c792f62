/** Prisma's read operations on a model delegate (what the shop scope and the read-once reader look at). */
export const READ_OPERATIONS = [
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "count",
  "aggregate",
  "groupBy",
] as const;
