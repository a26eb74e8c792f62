// What several loaders of one document request each ask (who is logged in,
// with their shop), looked up once. Remix runs the root, layout and page
// loaders of a request in parallel, each with its own copy of the Request
// but all with the same load context object (remix-handler.ts makes one per
// request), so the answers are kept per context.
//
// Only reads (GET/HEAD) share answers: a form post runs its action first
// and then the loaders, which must see what the action changed (a new shop
// language, a logout).

const memos = new WeakMap<object, Map<string, Promise<unknown>>>();

export function memoForRequest<T>(
  request: Request,
  context: unknown,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  const read = request.method === "GET" || request.method === "HEAD";
  if (!read || typeof context !== "object" || context === null) return compute();
  let memo = memos.get(context);
  if (!memo) memos.set(context, (memo = new Map()));
  let answer = memo.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = compute();
    memo.set(key, answer);
  }
  return answer;
}
