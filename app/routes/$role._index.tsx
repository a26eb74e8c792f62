import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

export function loader({ params, request }: LoaderFunctionArgs) {
  const { search } = new URL(request.url);
  return redirect(`/${params.role}/dashboard${search}`);
}
